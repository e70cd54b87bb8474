import { Types, type FilterQuery, type Model } from 'mongoose';
import { substringPattern } from '@fi/shared';
import { SENTIMENTS, STATUSES } from '../domain/feedbackValues';
import { encodeCursor, type CursorPosition } from '../domain/cursor';
import type { FeedbackQuery } from '../domain/feedbackListQuery';
import type { FeedbackDocument } from './feedbackModel';
import { toItem, type FeedbackItem } from './feedbackItem';
import type { CountStore } from './countStore';
import { totalOf } from './feedbackTotals';

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

export const cursorOf = (doc: Pick<FeedbackDocument, 'createdAt' | '_id'>) => encodeCursor({ createdAt: doc.createdAt, id: doc._id.toHexString() });

/** One page: reads one item more than asked, so it knows whether a next page exists. */
export async function listFeedback(model: Model<FeedbackDocument>, counts: CountStore, orgId: string, query: FeedbackQuery): Promise<FeedbackPage> {
  const filter = feedbackFilter(orgId, query);
  const { skip, take } = query.page;
  const pageFilter = query.after ? { $and: [filter, afterPosition(query.after)] } : filter;
  const [docs, total] = await Promise.all([
    take === 0 ? Promise.resolve([] as FeedbackDocument[]) : model.find(pageFilter).sort(NEWEST_FIRST).skip(skip).limit(take + 1).lean<FeedbackDocument[]>(),
    totalOf(model, counts, orgId, query, filter),
  ]);
  const page = docs.slice(0, take);
  return {
    items: page.map(toItem),
    total,
    nextCursor: docs.length > take ? cursorOf(page[page.length - 1]) : null,
  };
}
