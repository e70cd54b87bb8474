import type { FeedbackRecord } from '../data/feedbackRepository';
import type { NewFeedbackInput } from '../generated/resolvers';
import { badRequest, requireEmail, requireNonBlank, requireOneOf, SENTIMENTS, validateMetadata } from '@fi/shared';

export type { NewFeedbackInput };

/** A new item's own fields; the service adds status and dates. */
export type ValidFeedback = Omit<FeedbackRecord, 'status' | 'publishedDate' | 'createdAt'>;

/** Longest accepted text per field, in characters; documented in the README. */
export const FEEDBACK_LIMITS = {
  source: 100,
  title: 500,
  author: 200,
  content: 65_536,
} as const;

function limited(name: keyof typeof FEEDBACK_LIMITS, value: string): string {
  if (value.length > FEEDBACK_LIMITS[name]) {
    throw badRequest(`${name} must be at most ${FEEDBACK_LIMITS[name]} characters (got ${value.length})`, {
      argument: name,
      max: FEEDBACK_LIMITS[name],
    });
  }
  return value;
}

/** The rules for every new item, whether it comes from the API or from an import. */
export function validateNewFeedback(input: NewFeedbackInput): ValidFeedback {
  const author = input.author?.trim();
  return {
    source: limited('source', requireNonBlank('source', input.source)),
    title: limited('title', requireNonBlank('title', input.title)),
    content: limited('content', requireNonBlank('content', input.content)),
    ...(author ? { author: limited('author', author) } : {}),
    ...optional('email', requireEmail('email', input.email)),
    ...optional('sentiment', requireOneOf('sentiment', input.sentiment, SENTIMENTS)),
    ...optional('metadata', input.metadata === null || input.metadata === undefined ? undefined : validateMetadata(input.metadata)),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
