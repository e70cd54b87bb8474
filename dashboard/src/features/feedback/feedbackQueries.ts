// The documents are in feedback.graphql; `npm run codegen` types them against the admin API.
import type { FeedbackItemQuery, FeedbackRowFragment } from '../../generated/graphql';

export {
  ChangeSentimentDocument as CHANGE_SENTIMENT,
  ChangeStatusDocument as CHANGE_STATUS,
  ChangeStatusesDocument as CHANGE_STATUSES,
  FeedbackInboxDocument as FEEDBACK_LIST,
  FeedbackItemDocument as FEEDBACK_ITEM,
  FeedbackPeopleDocument as FEEDBACK_PEOPLE,
  MergeDocument as MERGE,
  ThemeChoicesDocument as THEME_CHOICES,
  UnmergeDocument as UNMERGE,
} from '../../generated/graphql';

export type FeedbackRow = FeedbackRowFragment;
export type FeedbackDetail = NonNullable<FeedbackItemQuery['feedbackItem']>;

export const STATUSES = ['unread', 'read', 'archived'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

/** Status names as buttons and messages say them. */
export const STATUS_ACTIONS: Record<string, { label: string; done: string }> = {
  read: { label: 'Mark read', done: 'marked read' },
  unread: { label: 'Mark unread', done: 'marked unread' },
  archived: { label: 'Archive', done: 'archived' },
};

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
