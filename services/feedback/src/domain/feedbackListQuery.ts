import { badRequest, requireOneOf, SENTIMENTS, STATUSES, toPage, type Page } from '@fi/shared';
import { decodeCursor, MAX_CURSOR_LENGTH, type CursorPosition } from './cursor';
import { FEEDBACK_LIMITS } from './newFeedback';
import type { QueryFeedbackItemsArgs } from '../generated/resolvers';

/** Arguments of `feedbackItems` and `ContactItem.feedback` (which has no `source`) as GraphQL hands them over. */
export type FeedbackListArgs = Omit<QueryFeedbackItemsArgs, 'apiKey'>;

/** A validated list request: filters, then either a skip/take page or a keyset page after a cursor. */
export interface FeedbackQuery {
  source?: string;
  status?: string;
  sentiment?: string;
  /** Trimmed; matched as a literal, case-insensitive substring of title, content, author and email. */
  search?: string;
  /** Half-open range of publishedDate: publishedAfter <= publishedDate < publishedBefore. */
  publishedAfter?: Date;
  publishedBefore?: Date;
  after?: CursorPosition;
  page: Page;
}

export const MAX_SEARCH_LENGTH = 200;

function maxLength(name: string, value: string, max: number): string {
  if (value.length > max) throw badRequest(`${name} must be at most ${max} characters (got ${value.length})`, { argument: name, max });
  return value;
}

export function parseFeedbackListArgs(args: FeedbackListArgs): FeedbackQuery {
  const page = toPage(args);
  const query: FeedbackQuery = { page };
  if (args.source !== null && args.source !== undefined) query.source = maxLength('source', args.source, FEEDBACK_LIMITS.source);
  const status = requireOneOf('status', args.status, STATUSES);
  const sentiment = requireOneOf('sentiment', args.sentiment, SENTIMENTS);
  if (status) query.status = status;
  if (sentiment) query.sentiment = sentiment;
  const search = args.search === null || args.search === undefined ? '' : maxLength('search', args.search, MAX_SEARCH_LENGTH).trim();
  if (search) query.search = search;
  if (args.publishedAfter) query.publishedAfter = args.publishedAfter;
  if (args.publishedBefore) query.publishedBefore = args.publishedBefore;
  if (query.publishedAfter && query.publishedBefore && query.publishedAfter >= query.publishedBefore) {
    throw badRequest('publishedAfter must be earlier than publishedBefore (the range is publishedAfter <= publishedDate < publishedBefore)', {
      argument: 'publishedBefore',
    });
  }
  if (args.after !== null && args.after !== undefined) {
    if (page.skip > 0) throw badRequest('after cannot be combined with skip: page with one or the other', { argument: 'after' });
    query.after = decodeCursor(maxLength('after', args.after, MAX_CURSOR_LENGTH));
  }
  return query;
}
