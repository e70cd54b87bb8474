import { Types, type FilterQuery, type Model } from 'mongoose';
import { substringPattern } from '@fi/shared';
import { SENTIMENTS, STATUSES } from '../domain/feedbackValues';
import { encodeCursor, type CursorPosition } from '../domain/cursor';
import type { FeedbackQuery } from '../domain/feedbackListQuery';
import type { FeedbackDocument } from './feedbackModel';
import { toItem, type FeedbackItem } from './feedbackItem';
import type { CountStore } from './countStore';
import { totalOf } from './feedbackTotals';
import { scopeIds, type SearchScope } from '../search/indexedSearch';

export interface FeedbackPage {
  items: FeedbackItem[];
  /** Every match of the filters, wherever the page starts. */
  total: number;
  /** Cursor after the page's last item; null when nothing follows it. */
  nextCursor: string | null;
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

/** Same order as afterPosition, for rows already read. */
export function isAfter(doc: Pick<FeedbackDocument, 'createdAt' | '_id'>, position: CursorPosition): boolean {
  const time = doc.createdAt.getTime() - position.createdAt.getTime();
  return time < 0 || (time === 0 && doc._id.toHexString() < position.id);
}

export const cursorOf = (doc: Pick<FeedbackDocument, 'createdAt' | '_id'>) =>
  encodeCursor({ createdAt: doc.createdAt, id: doc._id.toHexString() });

/**
 * Values of one `_id: {$in}`: the embedded engine pushes lists of up to 32,000 values down to SQL and
 * reads a longer one as the whole collection.
 */
export const IDS_PER_QUERY = 10_000;

/**
 * A search served by the index as filters of disjoint sets of items: the indexed matches (by `_id`, in
 * lists of at most IDS_PER_QUERY) with the filters the request gives, and the unindexed tail (after the
 * watermark) with today's regex. The read of the items checks that each match is still live and passes
 * the filters. The matches' filter names neither the organization (the ids are the organization's: its
 * index holds only its items) nor every status and sentiment as lists do: the `_id` index is the one that
 * serves it, and an engine that plans by the other fields would walk the organization's items instead
 * (the embedded engine did: 3-5 s at 100,000 items for a page of 8,000 matches, 0.3 s by `_id`).
 */
function searchParts(orgId: string, query: FeedbackQuery, scope: SearchScope): Array<FilterQuery<FeedbackDocument>> {
  const { orgId: _org, status, sentiment, ...given } = feedbackFilter(orgId, { ...query, search: undefined });
  const filtered: FilterQuery<FeedbackDocument> = {
    ...given,
    ...(query.status ? { status } : {}),
    ...(query.sentiment ? { sentiment } : {}),
  };
  const parts: Array<FilterQuery<FeedbackDocument>> = [];
  const ids = scopeIds(scope).map((id) => new Types.ObjectId(id));
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY)
    parts.push({ ...filtered, _id: { $in: ids.slice(at, at + IDS_PER_QUERY) } });
  parts.push(unindexedFilter(orgId, query, scope.state.watermark));
  return parts;
}

/** The list's filters over the items the search index does not hold yet (after its watermark), with today's regex. */
export const unindexedFilter = (
  orgId: string,
  query: FeedbackQuery,
  watermark: string,
): FilterQuery<FeedbackDocument> => ({
  ...feedbackFilter(orgId, query),
  _id: { $gt: new Types.ObjectId(watermark) },
});

/** The page of `docs` (read one more than `take`, so a next page shows) and its `total`. */
export function pageOf(docs: FeedbackDocument[], take: number, total: number): FeedbackPage {
  const page = docs.slice(0, take);
  return { items: page.map(toItem), total, nextCursor: docs.length > take ? cursorOf(page[page.length - 1]) : null };
}

const newestFirst = (a: FeedbackDocument, b: FeedbackDocument) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a._id.toHexString() < b._id.toHexString() ? 1 : -1);

/** The items `skip` to `skip + limit` of the union of disjoint filters, newest first. */
async function newestOf(
  model: Model<FeedbackDocument>,
  filters: Array<FilterQuery<FeedbackDocument>>,
  skip: number,
  limit: number,
): Promise<FeedbackDocument[]> {
  if (filters.length === 1)
    return model.find(filters[0]).sort(NEWEST_FIRST).skip(skip).limit(limit).lean<FeedbackDocument[]>();
  const lists = await Promise.all(
    filters.map((filter) =>
      model
        .find(filter)
        .sort(NEWEST_FIRST)
        .limit(skip + limit)
        .lean<FeedbackDocument[]>(),
    ),
  );
  return lists
    .flat()
    .sort(newestFirst)
    .slice(skip, skip + limit);
}

/**
 * One page: reads one item more than asked, so it knows whether a next page exists. A search the index
 * answers (`scope`, see search/indexedSearch.ts) reads its matches by id; `total` is then the sum of
 * the parts' exact counts.
 */
export async function listFeedback(
  model: Model<FeedbackDocument>,
  counts: CountStore,
  orgId: string,
  query: FeedbackQuery,
  scope: SearchScope | null = null,
): Promise<FeedbackPage> {
  const filter = feedbackFilter(orgId, query);
  const parts = scope ? searchParts(orgId, query, scope) : [filter];
  const { skip, take } = query.page;
  const pageParts = query.after ? parts.map((part) => ({ $and: [part, afterPosition(query.after!)] })) : parts;
  const [docs, total] = await Promise.all([
    take === 0 ? Promise.resolve([] as FeedbackDocument[]) : newestOf(model, pageParts, skip, take + 1),
    scope
      ? Promise.all(parts.map((part) => model.countDocuments(part))).then((totals) =>
          totals.reduce((sum, n) => sum + n, 0),
        )
      : totalOf(model, counts, orgId, query, filter),
  ]);
  return pageOf(docs, take, total);
}
