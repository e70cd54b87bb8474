import { analyzeSentiment, type Sentiment } from './analyzeSentiment';

export type SentimentSource = 'provided' | 'computed';

export interface SentimentFields {
  sentiment: Sentiment;
  /** -1 to 1 when computed; absent when the sentiment was provided. */
  sentimentScore?: number;
  sentimentSource: SentimentSource;
}

/**
 * The sentiment a new item is stored with: a provided one always wins; without one, the service
 * computes it from title and content. Every way into the database (the API, the CLI's import and
 * seed, the backfill) goes through here.
 */
export function withSentiment<T extends { title: string; content: string; sentiment?: string }>(
  record: T,
): Omit<T, keyof SentimentFields> & SentimentFields {
  if (record.sentiment) return { ...record, sentiment: record.sentiment as Sentiment, sentimentSource: 'provided' };
  const { sentiment, score } = analyzeSentiment(record.title, record.content);
  return { ...record, sentiment, sentimentScore: score, sentimentSource: 'computed' };
}
