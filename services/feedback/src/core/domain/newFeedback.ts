import { RecordRules, valueOrBadRequest, type Checked } from '@fi/shared';
import { SENTIMENTS, STATUSES, type FeedbackRecord } from '../model/feedbackItem';
import { withSentiment } from './sentiment';

/** A new item as the API's `NewFeedbackInput` carries it (checked here, whatever its shape). */
export interface NewFeedbackInput {
  source: string;
  title: string;
  content: string;
  author?: string | null;
  email?: string | null;
  sentiment?: string | null;
  metadata?: Record<string, unknown> | null;
  /** The item's id on the platform it came from: one item per organization, source and id. */
  externalId?: string | null;
  /** When it was written on that platform; now when absent. */
  publishedDate?: Date | string | null;
}

/** A new item's own fields; the service adds status and dates (publishedDate when not given). */
export type ValidFeedback = Omit<FeedbackRecord, 'status' | 'publishedDate' | 'createdAt'> & { publishedDate?: Date };

/** Longest accepted text per field, in characters; documented in docs/limits.md. */
export const FEEDBACK_LIMITS = {
  source: 100,
  title: 500,
  author: 200,
  content: 65_536,
  externalId: 255,
} as const;

const NEW_FEEDBACK_FIELDS = ['source', 'title', 'content', 'author', 'email', 'sentiment', 'metadata'] as const;

/** The fields of a new item, checked by the same rules wherever the item comes from. */
function readNewFeedback(rules: RecordRules): () => ValidFeedback {
  const fields = {
    source: rules.text('source', { required: true, max: FEEDBACK_LIMITS.source }),
    title: rules.text('title', { required: true, max: FEEDBACK_LIMITS.title }),
    content: rules.text('content', { required: true, max: FEEDBACK_LIMITS.content, multiline: true }),
    author: rules.text('author', { max: FEEDBACK_LIMITS.author }),
    email: rules.email('email'),
    sentiment: rules.oneOf('sentiment', SENTIMENTS),
    metadata: rules.metadata('metadata'),
  };
  return () => withoutAbsent({ ...fields, source: fields.source!, title: fields.title!, content: fields.content! });
}

/**
 * Every problem of a new item of the API, or the item ready to store. Only the API takes `externalId`
 * (its uniqueness is claimed as the item is added) and a `publishedDate` without the rest of an import.
 */
export function checkNewFeedback(input: unknown): Checked<ValidFeedback> {
  const rules = new RecordRules(input);
  const feedback = readNewFeedback(rules);
  const externalId = rules.text('externalId', { max: FEEDBACK_LIMITS.externalId });
  const publishedDate = rules.date('publishedDate');
  return rules.result(() => withoutAbsent({ ...feedback(), externalId, publishedDate }));
}

/** The API's rules for a new item: BAD_REQUEST naming the first problem's field. */
export function validateNewFeedback(input: NewFeedbackInput): ValidFeedback {
  return valueOrBadRequest(checkNewFeedback(input));
}

/** `id` is assigned on import, so a file may carry one; it is ignored. */
const IGNORED_ON_IMPORT = ['id'];

/**
 * An imported item: a new item's rules, plus what only an import may set (status and dates, for
 * history brought over from another tool). Unknown fields are refused, so a typo is not lost silently.
 */
export function checkImportedFeedback(record: unknown, now: Date): Checked<FeedbackRecord> {
  const rules = new RecordRules(
    record,
    [...NEW_FEEDBACK_FIELDS, 'status', 'publishedDate', 'createdAt'],
    IGNORED_ON_IMPORT,
  );
  const feedback = readNewFeedback(rules);
  const status = rules.oneOf('status', STATUSES) ?? 'unread';
  const createdAt = rules.date('createdAt');
  const publishedDate = rules.date('publishedDate');
  // Without a sentiment, the service computes one, as for addFeedbackItem (imports and seeds alike).
  return rules.result(() =>
    withSentiment({
      ...feedback(),
      status,
      publishedDate: publishedDate ?? createdAt ?? now,
      createdAt: createdAt ?? now,
    }),
  );
}

function withoutAbsent<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
