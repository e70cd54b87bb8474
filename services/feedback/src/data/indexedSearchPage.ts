import { Types, type FilterQuery, type Model } from 'mongoose';
import type { FeedbackQuery } from '../domain/feedbackListQuery';
import type { SearchScope } from '../search/indexedSearch';
import { newestIndexed } from '../search/indexedOrder';
import type { CountStore } from './countStore';
import { afterPosition, cursorOf, feedbackFilter, NEWEST_FIRST, type FeedbackPage } from './feedbackList';
import type { FeedbackDocument } from './feedbackModel';
import { toItem } from './feedbackItem';
import { totalOf } from './feedbackTotals';
import type { SearchIndexStore } from './searchIndexStore';

/** Removals not in the gone list yet that a search looks up itself; with more it reads the matches instead. */
const RECENT_REMOVALS = 1_000;
const FAR_FUTURE = new Date(8.64e15);

/** Only `search` (with `skip`, `take` and `after`): other filters need the items' fields, which the index does not hold. */
const searchOnly = (query: FeedbackQuery) =>
  query.status === undefined && query.sentiment === undefined && query.source === undefined && query.theme === undefined && !query.publishedAfter && !query.publishedBefore;

/**
 * The index's gone items (removed or merged), proven complete: the gone list with the removals stamped
 * after it, less the items live again (unmerged), must be exactly as many as the index holds beyond the
 * organization's live items (its kept counts, less the live items not indexed yet). Null when they differ:
 * a count not settled yet (a write in flight, an import held), or a removal whose tombstone was purged
 * before the gone list recorded it.
 */
async function provenGone(model: Model<FeedbackDocument>, counts: CountStore, store: SearchIndexStore, orgId: string, query: FeedbackQuery, scope: SearchScope): Promise<Set<number> | null> {
  const { state, blocks } = scope;
  const [live, notIndexed, recent] = await Promise.all([
    totalOf(model, counts, orgId, { page: query.page }, { orgId }),
    store.liveAfter(orgId, state.watermark),
    store.removalsAfter(orgId, state.goneAfter, FAR_FUTURE, RECENT_REMOVALS),
  ]);
  if (recent.length === RECENT_REMOVALS) return null;
  const gone = new Set(state.gone);
  for (const removal of recent) {
    const seq = removal.id <= state.watermark ? blocks.seqOf(removal.id) : null;
    if (seq !== null) gone.add(seq);
  }
  const idOf = new Map([...gone].map((seq) => [blocks.idOf(seq) ?? '', seq]));
  for (const id of await store.liveAmong(orgId, [...idOf.keys()])) gone.delete(idOf.get(id)!);
  return gone.size === state.next - (live - notIndexed) ? gone : null;
}

/**
 * A page of a search served by the index alone, or null when it cannot be (another filter, blocks without
 * times, gone items not proven): `total` counts the live matches from the index and the unindexed tail's
 * from the items, and the page reads only its own items, chosen by the createdAt the index keeps. So its
 * cost follows the number of matches in memory, not reads of every match.
 */
export async function indexedSearchPage(
  model: Model<FeedbackDocument>,
  counts: CountStore,
  store: SearchIndexStore,
  orgId: string,
  query: FeedbackQuery,
  scope: SearchScope,
): Promise<FeedbackPage | null> {
  if (!searchOnly(query) || !scope.blocks.timed) return null;
  const { skip, take } = query.page;
  const tail: FilterQuery<FeedbackDocument> = { ...feedbackFilter(orgId, query), _id: { $gt: new Types.ObjectId(scope.state.watermark) } };
  const [gone, tailDocs, tailTotal] = await Promise.all([
    provenGone(model, counts, store, orgId, query, scope),
    model
      .find(query.after ? { $and: [tail, afterPosition(query.after)] } : tail)
      .sort(NEWEST_FIRST)
      .limit(skip + take + 1)
      .lean<FeedbackDocument[]>(),
    model.countDocuments(tail),
  ]);
  if (!gone) return null;
  const live = scope.seqs.filter((seq) => !gone.has(seq));
  // One more than asked tells whether a next page exists; none is read for `take: 0`.
  const window = newestIndexed(scope.blocks, live, tailDocs, query.after, skip, take === 0 ? 0 : take + 1);
  const wanted = window.filter((entry) => entry.doc === undefined).map((entry) => new Types.ObjectId(entry.id));
  const read = wanted.length === 0 ? [] : await model.find({ orgId, _id: { $in: wanted } }).lean<FeedbackDocument[]>();
  const byId = new Map(read.map((doc) => [doc._id.toHexString(), doc]));
  const docs = window.map((entry) => entry.doc ?? byId.get(entry.id));
  // An item removed since the gone items were proven: the items' own answer is the exact one.
  if (docs.some((doc) => doc === undefined)) return null;
  const page = (docs as FeedbackDocument[]).slice(0, take);
  return { items: page.map(toItem), total: live.length + tailTotal, nextCursor: docs.length > take ? cursorOf(page[page.length - 1]) : null };
}
