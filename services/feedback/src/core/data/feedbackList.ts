import { Types, type FilterQuery, type Model } from 'mongoose';
import sift, { type Query } from 'sift';
import { substringPattern } from '@fi/shared';
import type { CursorPosition } from '../model/cursor';
import { SENTIMENTS, STATUSES, type FeedbackItem } from '../model/feedbackItem';
import { pageOfItems, type FeedbackPage, type FeedbackQuery } from '../model/feedbackQuery';
import type { CountStore } from './countStore';
import { toItem } from './feedbackDocuments';
import type { FeedbackDocument } from './feedbackModel';
import { totalOf } from './feedbackTotals';
import { idChunks } from './ferretDbV1';

/**
 * Candidates of a list (a search index's answer, see search/): the items among `ids`, which the list's
 * other filters still select, and every item after the id `after`, which the whole query selects. When
 * `tail` is given, it holds the items after `after` as already read (a search's unindexed tail): the list
 * matches the query against them in process instead of reading them twice more (a page and a count).
 */
export interface Candidates {
  ids: string[];
  after: string;
  tail?: FeedbackItem[];
}

export const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

const SEARCH_FIELDS = ['title', 'content', 'author', 'email'] as const;

/** Every value of status and sentiment, as a list without that filter names them (see below). */
export const ANY_STATUS = { $in: [...STATUSES] };
export const ANY_SENTIMENT = { $in: [...SENTIMENTS, null] };

/**
 * The filters of a list request (without the cursor), for the given organization. Status and sentiment
 * are always named, with every value when not filtered: then the same index (organization, status,
 * sentiment, newest first) serves any combination of filters in the list's order, instead of one index
 * per combination. Items carry a status and a sentiment (or none) of those values only (the API and
 * imports check them).
 */
export function feedbackFilter(orgId: string, query: FeedbackQuery): FilterQuery<FeedbackDocument> {
  const filter: FilterQuery<FeedbackDocument> = { orgId };
  if (query.source !== undefined) filter.source = query.source;
  filter.status = query.status ?? ANY_STATUS;
  filter.sentiment = query.sentiment ?? ANY_SENTIMENT;
  if (query.theme !== undefined) filter.themeIds = query.theme;
  if (query.publishedAfter || query.publishedBefore) {
    filter.publishedDate = {
      ...(query.publishedAfter ? { $gte: query.publishedAfter } : {}),
      ...(query.publishedBefore ? { $lt: query.publishedBefore } : {}),
    };
  }
  const pattern = substringPattern(query.search);
  if (pattern) filter.$or = SEARCH_FIELDS.map((field) => ({ [field]: pattern }));
  return filter;
}

/** Items strictly after `position` in the list's order (createdAt descending, then id descending). */
export function afterPosition(position: CursorPosition): FilterQuery<FeedbackDocument> {
  const _id = new Types.ObjectId(position.id);
  return { $or: [{ createdAt: { $lt: position.createdAt } }, { createdAt: position.createdAt, _id: { $lt: _id } }] };
}

/**
 * A list over candidates as filters of disjoint sets of items: the candidates by id (in lists of at most
 * IDS_PER_QUERY) with the filters the request gives, and the items after `after` with the whole query
 * (a search's regex too). The read of the items checks that each candidate is still live and passes the
 * filters. The candidates' filter names neither the organization (a search index holds only its
 * organization's items) nor every status and sentiment as lists do: the `_id` index is the one that
 * serves it, and an engine that plans by the other fields would walk the organization's items instead
 * (the embedded engine did: 3-5 s at 100,000 items for a page of 8,000 matches, 0.3 s by `_id`).
 */
function candidateParts(
  orgId: string,
  query: FeedbackQuery,
  candidates: Candidates,
): Array<FilterQuery<FeedbackDocument>> {
  const { orgId: _org, status, sentiment, ...given } = feedbackFilter(orgId, { ...query, search: undefined });
  const filtered: FilterQuery<FeedbackDocument> = {
    ...given,
    ...(query.status ? { status } : {}),
    ...(query.sentiment ? { sentiment } : {}),
  };
  const parts: Array<FilterQuery<FeedbackDocument>> = [];
  for (const ids of idChunks(candidates.ids.map((id) => new Types.ObjectId(id))))
    parts.push({ ...filtered, _id: { $in: ids } });
  if (!candidates.tail) parts.push(afterIdFilter(orgId, query, candidates.after));
  return parts;
}

/** The list's filters (a search's regex too) over the items after the id `after`. */
export const afterIdFilter = (orgId: string, query: FeedbackQuery, after: string): FilterQuery<FeedbackDocument> => ({
  ...feedbackFilter(orgId, query),
  _id: { $gt: new Types.ObjectId(after) },
});

/** The list's order: createdAt descending, then id descending (hex ids compare as the ObjectIds do). */
const newestFirst = (a: FeedbackItem, b: FeedbackItem) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The items among `items` (already read) that the query selects, in the list's order: the filter the
 * database reads (feedbackFilter), applied in process, so the two can never disagree.
 */
export function matchingItems(orgId: string, query: FeedbackQuery, items: FeedbackItem[]): FeedbackItem[] {
  // The item's fields that a filter names carry the document's names and values (see toItem).
  const selects = sift(feedbackFilter(orgId, query) as Query<FeedbackItem>);
  return items.filter((item) => selects(item)).sort(newestFirst);
}

/** Items (in the list's order) strictly after the cursor's position, as afterPosition reads them. */
export const afterPositionIn = (items: FeedbackItem[], position: CursorPosition | undefined): FeedbackItem[] =>
  position
    ? items.filter(
        (item) =>
          item.createdAt.getTime() < position.createdAt.getTime() ||
          (item.createdAt.getTime() === position.createdAt.getTime() && item.id < position.id),
      )
    : items;

/** The items `skip` to `skip + limit` of the union of disjoint filters and items already read (in the list's order), newest first. */
async function newestOf(
  model: Model<FeedbackDocument>,
  filters: Array<FilterQuery<FeedbackDocument>>,
  skip: number,
  limit: number,
  read: FeedbackItem[] = [],
): Promise<FeedbackItem[]> {
  if (filters.length === 1 && read.length === 0)
    return (await model.find(filters[0]).sort(NEWEST_FIRST).skip(skip).limit(limit).lean<FeedbackDocument[]>()).map(
      toItem,
    );
  const lists = await Promise.all(
    filters.map((filter) =>
      model
        .find(filter)
        .sort(NEWEST_FIRST)
        .limit(skip + limit)
        .lean<FeedbackDocument[]>(),
    ),
  );
  return [...lists.flat().map(toItem), ...read.slice(0, skip + limit)].sort(newestFirst).slice(skip, skip + limit);
}

/**
 * One page: reads one item more than asked, so it knows whether a next page exists. A list over
 * candidates (a search index's) reads them by id; `total` is then the sum of the parts' exact counts.
 */
export async function listFeedback(
  model: Model<FeedbackDocument>,
  counts: CountStore,
  orgId: string,
  query: FeedbackQuery,
  candidates: Candidates | null = null,
): Promise<FeedbackPage> {
  const filter = feedbackFilter(orgId, query);
  const parts = candidates ? candidateParts(orgId, query, candidates) : [filter];
  const tail = candidates?.tail ? matchingItems(orgId, query, candidates.tail) : [];
  const { skip, take } = query.page;
  const pageParts = query.after ? parts.map((part) => ({ $and: [part, afterPosition(query.after!)] })) : parts;
  const [items, total] = await Promise.all([
    take === 0
      ? Promise.resolve([] as FeedbackItem[])
      : newestOf(model, pageParts, skip, take + 1, afterPositionIn(tail, query.after)),
    candidates
      ? Promise.all(parts.map((part) => model.countDocuments(part))).then((totals) =>
          totals.reduce((sum, n) => sum + n, tail.length),
        )
      : totalOf(model, counts, orgId, query, filter),
  ]);
  return pageOfItems(items, take, total);
}
