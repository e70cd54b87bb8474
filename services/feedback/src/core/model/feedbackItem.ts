import { emailDomainOf, requireOneOf } from '@fi/shared';
import type { CountedItem } from './countDelta';

/** The values the spec gives a feedback item's `sentiment` and `status`: rules of this service alone. */
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export const STATUSES = ['unread', 'read', 'archived'] as const;

export type Sentiment = (typeof SENTIMENTS)[number];
export type FeedbackStatus = (typeof STATUSES)[number];
/** Who gives an item its sentiment after it is stored: the organization's chat model, or a person. */
export type SentimentGiver = 'model' | 'person';

/**
 * A status as a client sent it (`String!` in the schema), checked once where it enters: the API's arguments
 * and imported records. Everything past the edge takes a `FeedbackStatus`.
 */
export function parseStatus(value: string): FeedbackStatus;
export function parseStatus(value: string | null | undefined): FeedbackStatus | undefined;
export function parseStatus(value: string | null | undefined): FeedbackStatus | undefined {
  return requireOneOf('status', value, STATUSES);
}

/** A sentiment (a filter, or a person's) as a client sent it, checked once where it enters. */
export function parseSentiment(value: string): Sentiment;
export function parseSentiment(value: string | null | undefined): Sentiment | undefined;
export function parseSentiment(value: string | null | undefined): Sentiment | undefined {
  return requireOneOf('sentiment', value, SENTIMENTS);
}

/** A feedback item as the API, its events and its features read it. */
export interface FeedbackItem {
  id: string;
  orgId: string;
  source: string;
  title: string;
  content: string;
  author: string | null;
  email: string | null;
  sentiment: Sentiment | null;
  sentimentScore: number | null;
  sentimentSource: string;
  /** Absent on items stored before the service read languages: the resolver reads it then. */
  language?: string | null;
  status: FeedbackStatus;
  /** Ids of the item's themes, most relevant first (absent when it has none). */
  themeIds?: string[];
  /** Why it has its curated themes (the themes feature's), best first; absent when it has none. */
  themeMatches?: ThemeMatch[];
  metadata: Record<string, unknown> | null;
  /** The item's id on the platform it came from (absent when it has none). */
  externalId?: string;
  publishedDate: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A validated item ready to store; `status`, `publishedDate` and `createdAt` are set by the caller. */
export interface FeedbackRecord {
  source: string;
  title: string;
  content: string;
  author?: string;
  email?: string;
  sentiment?: Sentiment;
  sentimentScore?: number;
  sentimentSource?: string;
  language?: string | null;
  metadata?: Record<string, unknown>;
  externalId?: string;
  status: FeedbackStatus;
  publishedDate: Date;
  createdAt: Date;
}

/** A merged duplicate as the API reads it: the item as it was, and the item it was merged into. */
export type MergedItem = FeedbackItem & { duplicateOf: string };

/**
 * An item as a change reads it: with the ids of the changes its last writes named (the change stream's
 * proof that a recorded change happened, see changes/), so a change that removes it loses none of them.
 */
export interface ItemForChange {
  item: FeedbackItem;
  changeIds: string[] | undefined;
}

/** The outcome of setting one item's status: the item as written, and what it was before the write. */
export interface StatusChange {
  item: FeedbackItem;
  previousStatus: FeedbackStatus;
  /** False when the item already had the status: nothing was written. */
  changed: boolean;
}

/** An idempotency key's claim: the item id every replay converges on, and the item once created. */
export interface Claim {
  itemId: string;
  item: FeedbackItem | null;
}

/** What a sentiment backfill writes of an item's text as the service reads it. */
export interface SentimentReading {
  /** Null when the text's language is not read, or gave no clear verdict: the item is marked so and not read again. */
  sentiment: Sentiment | null;
  sentimentScore: number | null;
  language: string | null;
  /** Why there is no sentiment, when there is none. */
  withoutSentiment?: 'unsupported-language' | 'uncertain';
}

/** Feedback count and newest publishedDate of one author. */
export interface AuthorStats {
  count: number;
  lastPublished: Date | null;
}

/** The match keys kept beside an item (see shared linkKeys), so links are found through indexes. */
export function feedbackMatchKeys(email: string | null | undefined): {
  emailLower: string | null;
  emailDomain: string | null;
} {
  return { emailLower: email?.toLowerCase() ?? null, emailDomain: emailDomainOf(email) };
}

/** The item as it will read once stored under `id` (what a created event carries). */
export const itemOf = (id: string, orgId: string, record: FeedbackRecord): FeedbackItem => ({
  id,
  orgId,
  source: record.source,
  title: record.title,
  content: record.content,
  author: record.author ?? null,
  email: record.email ?? null,
  sentiment: record.sentiment ?? null,
  sentimentScore: record.sentimentScore ?? null,
  // Items stored before the service computed sentiment carry only what their client provided.
  sentimentSource: record.sentimentSource ?? 'provided',
  ...(record.language !== undefined ? { language: record.language } : {}),
  status: record.status,
  metadata: record.metadata ?? null,
  ...(record.externalId !== undefined ? { externalId: record.externalId } : {}),
  publishedDate: record.publishedDate,
  createdAt: record.createdAt,
  updatedAt: record.createdAt,
});

/** What the kept counts look at of an item (its match keys derived as when it was stored). */
export const countedOf = (item: FeedbackItem): CountedItem => ({
  orgId: item.orgId,
  source: item.source,
  status: item.status,
  sentiment: item.sentiment,
  publishedDate: item.publishedDate,
  ...feedbackMatchKeys(item.email),
});

/** Who or what gave an item a curated theme. */
export type ThemeAssigner = 'person' | 'examples' | 'keywords' | 'model';

/** One curated theme of an item, written by the themes feature with the item's `themeIds`. */
export interface ThemeMatch {
  themeId: string;
  /** 0 to 1; 1 for a person's assignment. */
  confidence: number;
  assignedBy: ThemeAssigner;
}
