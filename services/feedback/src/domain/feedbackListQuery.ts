import { badRequest, requireMaxLength, requireOneOf, textArgumentMax, toPage, type Page } from '@fi/shared';
import { SENTIMENTS, STATUSES } from './feedbackValues';
import { decodeCursor, MAX_CURSOR_LENGTH, type CursorPosition } from './cursor';
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
  /** Only items of this theme. */
  theme?: string;
  after?: CursorPosition;
  page: Page;
}

// Root fields get these limits from the shared schema wrapper already; ContactItem.feedback is no
// root field, so the list's own parsing applies them to both.
const maxLength = (name: string, value: string) => requireMaxLength(name, value, textArgumentMax(name));

export function parseFeedbackListArgs(args: FeedbackListArgs): FeedbackQuery {
  const page = toPage(args);
  const query: FeedbackQuery = { page };
  if (args.source !== null && args.source !== undefined) query.source = maxLength('source', args.source);
  const status = requireOneOf('status', args.status, STATUSES);
  const sentiment = requireOneOf('sentiment', args.sentiment, SENTIMENTS);
  if (status) query.status = status;
  if (sentiment) query.sentiment = sentiment;
  const search = args.search === null || args.search === undefined ? '' : maxLength('search', args.search).trim();
  if (search) query.search = search;
  if (args.theme !== null && args.theme !== undefined) query.theme = maxLength('theme', args.theme);
  if (args.publishedAfter) query.publishedAfter = args.publishedAfter;
  if (args.publishedBefore) query.publishedBefore = args.publishedBefore;
  if (query.publishedAfter && query.publishedBefore && query.publishedAfter >= query.publishedBefore) {
    throw badRequest(
      'publishedAfter must be earlier than publishedBefore (the range is publishedAfter <= publishedDate < publishedBefore)',
      {
        argument: 'publishedBefore',
      },
    );
  }
  if (args.after !== null && args.after !== undefined) {
    if (page.skip > 0)
      throw badRequest('after cannot be combined with skip: page with one or the other', { argument: 'after' });
    query.after = decodeCursor(requireMaxLength('after', args.after, MAX_CURSOR_LENGTH));
  }
  return query;
}
