import { Types, type FilterQuery, type Model } from 'mongoose';
import { substringPattern } from '@fi/shared';
import type { CursorPosition } from '../model/cursor';
import { SENTIMENTS, STATUSES } from '../model/feedbackItem';
import { pageOfItems, type FeedbackPage, type FeedbackQuery } from '../model/feedbackQuery';
import type { CountStore } from './countStore';
import { toItem } from './feedbackDocuments';
import type { FeedbackDocument } from './feedbackModel';
import { totalOf } from './feedbackTotals';
import { idChunks } from './ferretDbV1';

/**
 * Candidates of a list (a search index's answer, see search/): the items among `ids`, which the list's
 * other filters still select, and every item after the id `after`, which the whole query selects.
 */
export interface Candidates {
  ids: string[];
  after: string;
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
  parts.push(afterIdFilter(orgId, query, candidates.after));
  return parts;
}

/** The list's filters (a search's regex too) over the items after the id `after`. */
export const afterIdFilter = (orgId: string, query: FeedbackQuery, after: string): FilterQuery<FeedbackDocument> => ({
  ...feedbackFilter(orgId, query),
  _id: { $gt: new Types.ObjectId(after) },
});

/** The page of `docs` (read one more than `take`, so a next page shows) and its `total`. */
export const pageOf = (docs: FeedbackDocument[], take: number, total: number): FeedbackPage =>
  pageOfItems(docs.map(toItem), take, total);

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
  const { skip, take } = query.page;
  const pageParts = query.after ? parts.map((part) => ({ $and: [part, afterPosition(query.after!)] })) : parts;
  const [docs, total] = await Promise.all([
    take === 0 ? Promise.resolve([] as FeedbackDocument[]) : newestOf(model, pageParts, skip, take + 1),
    candidates
      ? Promise.all(parts.map((part) => model.countDocuments(part))).then((totals) =>
          totals.reduce((sum, n) => sum + n, 0),
        )
      : totalOf(model, counts, orgId, query, filter),
  ]);
  return pageOf(docs, take, total);
}
