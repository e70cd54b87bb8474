import type { SENTIMENTS } from '@fi/shared';
import type { ItemSentence } from 'wink-nlp';
import { sentimentNlp } from './englishNlp';
import { normalizeSentence, sentenceCues, type SentenceCues } from './feedbackCues';

export type Sentiment = (typeof SENTIMENTS)[number];

export interface SentimentResult {
  sentiment: Sentiment;
  /** -1 (most negative) to 1 (most positive). */
  score: number;
}

/** The knobs of the rule; the values in use were chosen on the tuning half of the evaluation set. */
export interface SentimentTuning {
  /** Subtracted per reported problem in a sentence (at most two count). */
  problemWeight: number;
  /** Added per denied or solved problem. */
  reliefWeight: number;
  /** Factor on the lexicon score of a question or request, whose words are not a judgement. */
  requestDamping: number;
  /** Factor on praise in a sentence that also reports a problem ("Great, another crash"). */
  praiseBesideProblem: number;
  /** How far the text's score moves from the sentences' mean towards its most negative sentence (0 to 1). */
  worstPull: number;
  /** Scores at or below are negative. */
  negativeAtMost: number;
  /** Scores at or above are positive. */
  positiveAtLeast: number;
}

export const SENTIMENT_TUNING: SentimentTuning = {
  problemWeight: 0.5,
  reliefWeight: 0.4,
  requestDamping: 0,
  praiseBesideProblem: 0,
  worstPull: 0.25,
  negativeAtMost: -0.24,
  positiveAtLeast: 0.26,
};

const its = sentimentNlp.its;

/** Title and content read as one text; the title ends its own sentence. */
function feedbackText(title: string, content: string): string {
  const head = title.trim();
  return /[.!?]$/.test(head) || head === '' ? `${head} ${content}` : `${head}. ${content}`;
}

const clamp = (value: number) => Math.max(-1, Math.min(1, value));

/** What one sentence says before any tuning is applied. */
export interface SentenceReading {
  /** wink-nlp's lexicon score of the sentence, negations included (-1 to 1). */
  lexicon: number;
  cues: SentenceCues;
}

/** The tuning-independent, costly part: wink-nlp reads the text once. */
export function readSentences(title: string, content: string): SentenceReading[] {
  const readings: SentenceReading[] = [];
  sentimentNlp
    .readDoc(feedbackText(title, content))
    .sentences()
    .each((sentence: ItemSentence) => {
      readings.push({ lexicon: sentence.out(its.sentiment) as number, cues: sentenceCues(normalizeSentence(sentence.out())) });
    });
  return readings;
}

/**
 * Sentence scores are wink-nlp's lexicon score adjusted by what feedback says without sentiment words
 * (`feedbackCues`); the text's score is their mean, pulled towards its most negative sentence when there
 * is one (`worstPull`), because one complaint in a long, polite message is still a complaint.
 */
export function combineSentences(readings: SentenceReading[], tuning: SentimentTuning = SENTIMENT_TUNING): number {
  if (readings.length === 0) return 0;
  const scores = readings.map(({ lexicon, cues }) => {
    let praise = lexicon;
    if (cues.request) praise *= tuning.requestDamping;
    if (cues.problems >= 1 && praise > 0) praise *= tuning.praiseBesideProblem;
    return praise + tuning.reliefWeight * cues.reliefs - tuning.problemWeight * Math.min(cues.problems, 2);
  });
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const worst = Math.min(...scores);
  const score = worst < 0 ? mean + (worst - mean) * tuning.worstPull : mean;
  return Math.round(clamp(score) * 1000) / 1000;
}

/** Score of one feedback text, offline, from -1 to 1. */
export function scoreSentiment(title: string, content: string, tuning: SentimentTuning = SENTIMENT_TUNING): number {
  return combineSentences(readSentences(title, content), tuning);
}

export function sentimentOfScore(score: number, tuning: SentimentTuning = SENTIMENT_TUNING): Sentiment {
  if (score <= tuning.negativeAtMost) return 'negative';
  if (score >= tuning.positiveAtLeast) return 'positive';
  return 'neutral';
}

/** The sentiment the service stores when a new item comes without one. */
export function analyzeSentiment(title: string, content: string): SentimentResult {
  const score = scoreSentiment(title, content);
  return { sentiment: sentimentOfScore(score), score };
}
