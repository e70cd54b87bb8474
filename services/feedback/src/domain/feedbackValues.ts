/** The values the spec gives a feedback item's `sentiment` and `status`: rules of this service alone. */
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export const STATUSES = ['unread', 'read', 'archived'] as const;
