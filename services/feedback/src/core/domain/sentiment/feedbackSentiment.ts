import { readLanguage } from '../language/detectLanguage';
import { analyzeSentiment, feedbackText, type Sentiment } from './analyzeSentiment';
import { isForeignReadable, readForeign } from './foreignSentiment';
import { rememberRecent } from './recentTexts';

/**
 * provided: by the client; computed: by the service, in the text's language; unsupported-language:
 * the text is in a language the service cannot read, so it has no sentiment (never an English reading);
 * uncertain: the language is read but the text gave no clear verdict in it (no sentiment rather than a
 * guess).
 */
export type SentimentSource = 'provided' | 'computed' | 'unsupported-language' | 'uncertain';

export interface SentimentFields {
  sentiment?: Sentiment;
  /** -1 to 1 when computed; absent when the sentiment was provided or the language is not read. */
  sentimentScore?: number;
  sentimentSource: SentimentSource;
  /** ISO 639-1 code of the text's language; null when the service is unsure. */
  language: string | null;
}

export interface FeedbackReading {
  language: string | null;
  /** Null when the text's language is not one the service reads, or the reading in it was unsure. */
  sentiment: Sentiment | null;
  score: number | null;
  /** The language is read, but the text gave no clear verdict in it. */
  uncertain: boolean;
}

/**
 * The language of the text and its sentiment read in that language: English (and text too short to
 * name a language that shows no sign of another) by the English rule, German, French, Spanish,
 * Portuguese, Dutch and Italian by nlp.js's lexicon of that language with its feedback cues, anything
 * else not at all.
 */
export function readFeedback(title: string, content: string): FeedbackReading {
  const text = feedbackText(title, content);
  const { language, foreign } = readLanguage(text);
  if (isForeignReadable(language)) {
    const { sentiment, score } = readForeign(language, text);
    return { language, sentiment, score: sentiment === null ? null : score, uncertain: sentiment === null };
  }
  if (language === 'en' || (language === null && !foreign)) {
    const { sentiment, score } = analyzeSentiment(title, content);
    return { language, sentiment, score, uncertain: false };
  }
  return { language, sentiment: null, score: null, uncertain: false };
}

/**
 * Readings of recent short texts, so a text written many times (an import's or a seed's repeated
 * templates: reading one costs about a millisecond, most of a seed's time) is read once.
 */
const readRemembered = rememberRecent(
  ({ title, content }: { title: string; content: string }) => readFeedback(title, content),
  ({ title, content }) => (title.length + content.length > 2_000 ? null : JSON.stringify([title, content])),
  1_000,
);

/**
 * The sentiment and language a new item is stored with: a provided sentiment always wins; without one,
 * the service reads it from title and content. Every way into the database (the API, the CLI's import
 * and seed, the backfill) goes through here.
 */
export function withSentiment<T extends { title: string; content: string; sentiment?: string }>(
  record: T,
): Omit<T, keyof SentimentFields> & SentimentFields {
  const reading = readRemembered(record);
  if (record.sentiment)
    return {
      ...record,
      sentiment: record.sentiment as Sentiment,
      sentimentSource: 'provided',
      language: reading.language,
    };
  if (reading.sentiment === null) {
    const { sentiment: _none, ...rest } = record;
    const sentimentSource = reading.uncertain ? 'uncertain' : 'unsupported-language';
    return { ...rest, sentimentSource, language: reading.language } as Omit<T, keyof SentimentFields> & SentimentFields;
  }
  return {
    ...record,
    sentiment: reading.sentiment,
    sentimentScore: reading.score!,
    sentimentSource: 'computed',
    language: reading.language,
  };
}
