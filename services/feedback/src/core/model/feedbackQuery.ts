import type { Page } from '@fi/shared';
import { cursorAfter, type CursorPosition } from './cursor';
import type { FeedbackItem, FeedbackStatus, Sentiment } from './feedbackItem';

/** A validated list request: filters, then either a skip/take page or a keyset page after a cursor. */
export interface FeedbackQuery {
  source?: string;
  status?: FeedbackStatus;
  sentiment?: Sentiment;
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

export interface FeedbackPage {
  items: FeedbackItem[];
  /** Every match of the filters, wherever the page starts. */
  total: number;
  /** Cursor after the page's last item; null when nothing follows it. */
  nextCursor: string | null;
  /** Set when a search could not read every item: what it read (the API's SearchReach); else null. */
  searchReach: SearchReach | null;
}

/** Items a search read through its index and one by one (the newest not indexed), and those it left. */
export interface SearchReach {
  indexed: number;
  newest: number;
  notSearched: number;
}

/** The page of `items` (read one more than `take`, so a next page shows) and its `total`. */
export function pageOfItems(items: FeedbackItem[], take: number, total: number): FeedbackPage {
  const page = items.slice(0, take);
  return {
    items: page,
    total,
    nextCursor: items.length > take ? cursorAfter(page[page.length - 1]) : null,
    searchReach: null,
  };
}
