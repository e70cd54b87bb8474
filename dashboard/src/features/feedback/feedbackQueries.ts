import { gql } from '@urql/core';

export interface FeedbackRow {
  id: string;
  title: string;
  source: string;
  author: string | null;
  email: string | null;
  sentiment: string | null;
  status: string;
  publishedDate: string;
}

export interface FeedbackDetail extends FeedbackRow {
  content: string;
  sentimentSource: string;
  language: string | null;
  updatedAt: string;
  themes: Array<{ id: string; label: string }>;
  similar: Array<{ score: number; item: FeedbackRow }>;
  duplicateOf: { id: string; title: string } | null;
  duplicates: FeedbackRow[];
}

export const STATUSES = ['unread', 'read', 'archived'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

const ROW = 'id title source author email sentiment status publishedDate';

/** The feedback service's admin API: the list with the public list's filters (checked by the service). */
export const FEEDBACK_LIST = gql<
  { page: { total: number; items: FeedbackRow[] } },
  {
    status: string | null;
    sentiment: string | null;
    source: string | null;
    theme: string | null;
    search: string | null;
    skip: number;
    take: number;
  }
>`
  query FeedbackInbox($status: String, $sentiment: String, $source: String, $theme: String, $search: String, $skip: Int, $take: Int) {
    page: feedbackItems(status: $status, sentiment: $sentiment, source: $source, theme: $theme, search: $search, skip: $skip, take: $take) {
      total
      items { ${ROW} }
    }
  }
`;

/** The organization's themes (for the theme filter), largest first. */
export const THEME_CHOICES = gql<{ feedbackThemes: { items: Array<{ id: string; label: string }> } }>`
  query ThemeChoices {
    feedbackThemes(take: 100) {
      items {
        id
        label
      }
    }
  }
`;

export const CHANGE_STATUSES = gql<{ changeFeedbackStatuses: number }, { ids: string[]; status: string }>`
  mutation ChangeStatuses($ids: [String!]!, $status: String!) {
    changeFeedbackStatuses(ids: $ids, status: $status)
  }
`;

export const CHANGE_STATUS = gql<
  { changeFeedbackStatus: { id: string; status: string; updatedAt: string } },
  { id: string; status: string }
>`
  mutation ChangeStatus($id: String!, $status: String!) {
    changeFeedbackStatus(id: $id, status: $status) {
      id
      status
      updatedAt
    }
  }
`;

/** One item with its themes and the items like it. */
export const FEEDBACK_ITEM = gql<{ feedbackItem: FeedbackDetail | null }, { id: string }>`
  query FeedbackItem($id: String!) {
    feedbackItem(id: $id) {
      ${ROW} content sentimentSource language updatedAt
      themes { id label }
      similar(take: 5) { score item { ${ROW} } }
      duplicateOf { id title }
      duplicates { ${ROW} }
    }
  }
`;

/** Folds a duplicate into an item (it leaves the inbox, kept whole with the item), or puts one back. */
export const MERGE = gql<{ mergeFeedbackItems: { id: string } }, { id: string; duplicateIds: string[] }>`
  mutation Merge($id: String!, $duplicateIds: [String!]!) {
    mergeFeedbackItems(id: $id, duplicateIds: $duplicateIds) {
      id
    }
  }
`;
export const UNMERGE = gql<{ unmergeFeedbackItem: { id: string } }, { id: string }>`
  mutation Unmerge($id: String!) {
    unmergeFeedbackItem(id: $id) {
      id
    }
  }
`;

/**
 * The item's contact (same email) and account (same email domain), from the contacts and accounts
 * services' admin schemas; their searches match substrings, so the page keeps exact matches only.
 */
export const FEEDBACK_PEOPLE = gql<
  {
    contacts: { items: Array<{ id: string; name: string; email: string | null; company: string | null }> };
    accounts: { items: Array<{ id: string; name: string; domain: string | null }> };
  },
  { email: string; domain: string }
>`
  query FeedbackPeople($email: String!, $domain: String!) {
    contacts(search: $email, take: 10) {
      items {
        id
        name
        email
        company
      }
    }
    accounts(search: $domain, take: 10) {
      items {
        id
        name
        domain
      }
    }
  }
`;

/** Status names as buttons and messages say them. */
export const STATUS_ACTIONS: Record<string, { label: string; done: string }> = {
  read: { label: 'Mark read', done: 'marked read' },
  unread: { label: 'Mark unread', done: 'marked unread' },
  archived: { label: 'Archive', done: 'archived' },
};

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
