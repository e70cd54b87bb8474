import type { ChangePosition } from '@fi/shared';
import {
  afterPositionIn,
  matchingItems,
  pageOfItems,
  type FeedbackItem,
  type FeedbackPage,
  type FeedbackQuery,
  type SearchReach,
} from '../core';
import type { Removal } from './data/indexStore';
import type { IndexedState, SearchScope } from './indexedSearch';
import { newestIndexed } from './indexedOrder';

/** Removals not in the gone list yet that a search looks up itself; with more it reads the matches instead. */
const RECENT_REMOVALS = 1_000;
/** Merged and recent removals whose liveness a search reads at most (an unmerge can bring one back). */
const CHECKED_AT_MOST = 10_000;
const FAR_FUTURE = new Date(8.64e15);
const NO_REMOVAL: ChangePosition = { at: new Date(0), id: '0'.repeat(24) };

/** What a search answered by the index reads of the items (the core's repository and tombstones). */
export interface IndexedItemReads {
  /** How many items the organization has (kept counts). */
  total(orgId: string): Promise<number>;
  countAfterId(orgId: string, after: string): Promise<number>;
  /** The organization's newest `limit` items after the id `after` (null: any), newest id first. */
  newestAfter(orgId: string, after: string | null, limit: number): Promise<FeedbackItem[]>;
  findAmong(orgId: string, ids: string[]): Promise<FeedbackItem[]>;
  liveAmong(orgId: string, ids: string[]): Promise<Set<string>>;
  removedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<Removal[]>;
}

/** Only `search` (with `skip`, `take` and `after`): other filters need the items' fields, which the index does not hold. */
export const searchOnly = (query: FeedbackQuery) =>
  query.status === undefined &&
  query.sentiment === undefined &&
  query.source === undefined &&
  query.theme === undefined &&
  !query.publishedAfter &&
  !query.publishedBefore;

/**
 * The unindexed items a search reads at most. Right after a large import the index lags by up to the
 * whole import, and matching it all took seconds (a time-out at 100,000 items): a search then reads the
 * index and only the newest of the tail, and says how far it reached.
 */
export const TAIL_SEARCHED_AT_MOST = 1_000;

/** The items not in the index: how many, and from which id on a search reads them (null: every item). */
export interface SearchTail {
  /** The organization's live items (kept counts), and those the index does not hold yet. */
  live: number;
  notIndexed: number;
  /** The tail a search reads: the items after this id (the watermark, or the newest TAIL_SEARCHED_AT_MOST). */
  after: string | null;
  /** Those items, as read (newest id first): a search matches them in process. */
  items: FeedbackItem[];
  /** Set when the search reads only part of the tail. */
  reach?: SearchReach;
}

/**
 * The tail after `watermark` (null: nothing indexed yet), read once: its newest TAIL_SEARCHED_AT_MOST
 * items and one more, in one range of the (organization, `_id`) index cut at the limit. The search
 * matches its query against them in process, for the page and the count alike: reading them again by
 * regex took two more reads of the same range, each as dear as this one on the embedded engine (about
 * 130 ms for 1,000 items at 100,000, over 1 s in all while the worker indexed beside it). When the tail
 * holds more, the search reads only the newest TAIL_SEARCHED_AT_MOST: their start is the id of the next
 * newer one.
 */
export async function searchTail(
  items: IndexedItemReads,
  orgId: string,
  watermark: string | null,
): Promise<SearchTail> {
  const [live, read] = await Promise.all([
    items.total(orgId),
    items.newestAfter(orgId, watermark, TAIL_SEARCHED_AT_MOST + 1),
  ]);
  if (read.length <= TAIL_SEARCHED_AT_MOST) return { live, notIndexed: read.length, after: watermark, items: read };
  const notIndexed = watermark ? await items.countAfterId(orgId, watermark) : live;
  const searched = TAIL_SEARCHED_AT_MOST;
  return {
    live,
    notIndexed,
    after: read[searched].id,
    items: read.slice(0, searched),
    reach: { indexed: live - notIndexed, newest: searched, notSearched: Math.max(0, notIndexed - searched) },
  };
}

/** What an answer by the index alone reads beside the scope: it needs only the index's state. */
export interface IndexedReads {
  tail: SearchTail;
  /** Removals stamped after the gone list (RECENT_REMOVALS at most). */
  recent: Removal[];
  /** The unindexed tail's page (`skip + take + 1` newest matches, after the cursor) and its matches' count. */
  tailItems: FeedbackItem[];
  tailTotal: number;
}

/** The reads of an answer by the index alone (for a query with no other filter than the search). */
export async function indexedSearchReads(
  items: IndexedItemReads,
  orgId: string,
  query: FeedbackQuery,
  state: IndexedState,
  tail: SearchTail,
): Promise<IndexedReads> {
  const { skip, take } = query.page;
  const recent = await items.removedAfter(orgId, state.goneAfter ?? NO_REMOVAL, FAR_FUTURE, RECENT_REMOVALS);
  const matches = matchingItems(orgId, query, tail.items);
  const tailItems = afterPositionIn(matches, query.after).slice(0, skip + take + 1);
  return { tail, recent, tailItems, tailTotal: matches.length };
}

/**
 * The index's gone items (deleted or merged), proven complete: the gone list's deleted items, its merged
 * ones and the removals stamped after it that the index holds, less those live again (an unmerge, a
 * removal that failed), must be exactly as many as the index holds beyond the organization's live items
 * (its kept counts, less the live items not indexed yet). Null when they differ: a count not settled yet (a
 * write in flight, an import held), or a removal whose tombstone was purged before the gone list recorded
 * it; or when more than CHECKED_AT_MOST items would need their liveness read.
 */
async function provenGone(
  items: IndexedItemReads,
  orgId: string,
  scope: SearchScope,
  reads: IndexedReads,
): Promise<Set<number> | null> {
  const { state, blocks } = scope;
  if (reads.recent.length === RECENT_REMOVALS) return null;
  const uncertain = new Set(state.merged);
  for (const removal of reads.recent) {
    const seq = removal.id <= state.watermark ? blocks.seqOf(removal.id) : null;
    if (seq !== null) uncertain.add(seq);
  }
  if (uncertain.size > CHECKED_AT_MOST) return null;
  const idOf = new Map([...uncertain].map((seq) => [blocks.idOf(seq) ?? '', seq]));
  for (const id of await items.liveAmong(orgId, [...idOf.keys()])) uncertain.delete(idOf.get(id)!);
  const gone = new Set([...state.gone, ...uncertain]);
  return gone.size === state.next - (reads.tail.live - reads.tail.notIndexed) ? gone : null;
}

/**
 * A page of a search served by the index alone, or null when it cannot be (blocks without times, gone
 * items not proven): `total` counts the live matches from the index and the unindexed tail's from the
 * items, and the page reads only its own items, chosen by the createdAt the index keeps. So its cost
 * follows the number of matches in memory, not reads of every match.
 */
export async function indexedSearchPage(
  items: IndexedItemReads,
  orgId: string,
  query: FeedbackQuery,
  scope: SearchScope,
  reads: IndexedReads,
): Promise<FeedbackPage | null> {
  if (!scope.blocks.timed) return null;
  const gone = await provenGone(items, orgId, scope, reads);
  if (!gone) return null;
  const { skip, take } = query.page;
  const live = scope.seqs.filter((seq) => !gone.has(seq));
  // One more than asked tells whether a next page exists; none is read for `take: 0`.
  const window = newestIndexed(scope.blocks, live, reads.tailItems, query.after, skip, take === 0 ? 0 : take + 1);
  const wanted = window.filter((entry) => entry.doc === undefined).map((entry) => entry.id);
  const byId = new Map((await items.findAmong(orgId, wanted)).map((item) => [item.id, item]));
  const page = window.map((entry) => entry.doc ?? byId.get(entry.id));
  // An item removed since the gone items were proven: the items' own answer is the exact one.
  if (page.some((item) => item === undefined)) return null;
  const answer = pageOfItems(page as FeedbackItem[], take, live.length + reads.tailTotal);
  return reads.tail.reach ? { ...answer, searchReach: reads.tail.reach } : answer;
}
