import DataLoader from 'dataloader';
import { byArguments, EMPTY_GROUP_PAGE, groupedPages, matchKey, orgKey } from '@fi/shared';
import { comesAfter, cursorAfter, type FeedbackItem, type FeedbackPage, type FeedbackQuery } from '../core';
import type { LinkStore } from './data/linkStore';

export interface AuthorFeedbackKey {
  orgId: string;
  email?: string | null;
  args: FeedbackQuery;
}

const NO_FEEDBACK: FeedbackPage = { items: [], total: 0, nextCursor: null, searchReach: null };

/**
 * `ContactItem.feedback` for a page of contacts in one query: every matching item of all their
 * emails, newest first, streamed and paged per contact in memory (only each page is kept).
 */
export function createContactFeedbackLoader(store: LinkStore): DataLoader<AuthorFeedbackKey, FeedbackPage, string> {
  return new DataLoader<AuthorFeedbackKey, FeedbackPage, string>(
    async (keys) => {
      const results = new Map<AuthorFeedbackKey, FeedbackPage>();
      for (const group of byArguments(keys).values()) {
        const query = group[0].args;
        const withEmail = group.filter((key) => matchKey(key.email));
        if (withEmail.length === 0) continue;
        const after = query.after;
        const pages = await groupedPages(
          store.itemsOfEmails(
            [...new Set(withEmail.map((key) => key.orgId))],
            [...new Set(withEmail.map((key) => matchKey(key.email) as string))],
            query,
          ),
          (item: FeedbackItem) => (item.email ? [orgKey(item.orgId, item.email.toLowerCase())] : []),
          query.page,
          after ? (item: FeedbackItem) => comesAfter(item, after) : undefined,
        );
        for (const key of withEmail) {
          const page = pages.get(orgKey(key.orgId, matchKey(key.email) as string)) ?? EMPTY_GROUP_PAGE;
          const last = page.items[page.items.length - 1];
          results.set(key, {
            items: page.items,
            total: page.total,
            nextCursor: page.hasMore && last ? cursorAfter(last) : null,
            searchReach: null,
          });
        }
      }
      return keys.map((key) => results.get(key) ?? NO_FEEDBACK);
    },
    { cacheKeyFn: (key) => JSON.stringify([key.orgId, matchKey(key.email), key.args]) },
  );
}
