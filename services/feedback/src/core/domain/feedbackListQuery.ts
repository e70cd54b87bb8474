import { badRequest, requireMaxLength, textArgumentMax, toPage } from '@fi/shared';
import { decodeCursor, MAX_CURSOR_LENGTH } from '../model/cursor';
import { parseSentiment, parseStatus } from '../model/feedbackItem';
import type { FeedbackQuery } from '../model/feedbackQuery';

/** Arguments of `feedbackItems` and `ContactItem.feedback` (which has no `source`) as GraphQL hands them over. */
export interface FeedbackListArgs {
  source?: string | null;
  status?: string | null;
  sentiment?: string | null;
  search?: string | null;
  theme?: string | null;
  publishedAfter?: Date | null;
  publishedBefore?: Date | null;
  after?: string | null;
  skip?: number | null;
  take?: number | null;
}

// Root fields get these limits from the shared schema wrapper already; ContactItem.feedback is no
// root field, so the list's own parsing applies them to both.
const maxLength = (name: string, value: string) => requireMaxLength(name, value, textArgumentMax(name));

export function parseFeedbackListArgs(args: FeedbackListArgs): FeedbackQuery {
  const page = toPage(args);
  const query: FeedbackQuery = { page };
  if (args.source !== null && args.source !== undefined) query.source = maxLength('source', args.source);
  const status = parseStatus(args.status);
  const sentiment = parseSentiment(args.sentiment);
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
