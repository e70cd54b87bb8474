import type { SENTIMENTS } from '../feedbackValues';
import type { ItemSentence } from 'wink-nlp';
import { sentimentNlp } from './englishNlp';
import { MAX_PROBLEMS, normalizeSentence, sentenceCues, type SentenceCues } from './feedbackCues';

export type Sentiment = (typeof SENTIMENTS)[number];

export interface SentimentResult {
  sentiment: Sentiment;
  /** -1 (most negative) to 1 (most positive). */
  score: number;
}

/** The knobs of the rule; the values in use were chosen on the tuning data of the evaluation sets. */
export interface SentimentTuning {
  /** Subtracted per reported problem in a sentence (at most `MAX_PROBLEMS` count). */
  problemWeight: number;
  /** Added per denied or solved problem and praise idiom. */
  reliefWeight: number;
  /**
   * Factor on the lexicon score of a sentence that asks or wishes as a whole ("It would be nice to..."),
   * and on the reliefs of any question or request.
   */
  requestDamping: number;
  /** Factor on the problems a question or request names ("Do you collect crash reports?"). */
  requestProblemFactor: number;
  /** Factor on praise in a sentence that also reports a problem ("Great, another crash"), or in an ironic text. */
  praiseBesideProblem: number;
  /** Factor on the praise of a sentence that calls the product merely okay ("It's fine."). */
  lukewarmDamping: number;
  /** How far the text's score moves from the sentences' mean towards its most negative sentence (0 to 1). */
  worstPull: number;
  /** Scores at or below are negative. */
  negativeAtMost: number;
  /** Scores at or above are positive. */
  positiveAtLeast: number;
}

export const SENTIMENT_TUNING: SentimentTuning = {
  problemWeight: 0.6,
  reliefWeight: 0.6,
  requestDamping: 0,
  requestProblemFactor: 0.25,
  praiseBesideProblem: 0,
  lukewarmDamping: 0,
  worstPull: 0.5,
  negativeAtMost: -0.29,
  positiveAtLeast: 0.27,
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
 * (`feedbackCues`). The text's score is their mean, pulled towards its most negative sentence when there
 * is one (`worstPull`), because one complaint in a long, polite message is still a complaint. Irony
 * anywhere in the text ("Oh great, ...") empties the praise of every sentence.
 */
export function combineSentences(readings: SentenceReading[], tuning: SentimentTuning = SENTIMENT_TUNING): number {
  if (readings.length === 0) return 0;
  const ironic = readings.some(({ cues }) => cues.sarcasm);
  let sum = 0;
  let worst = 0;
  for (const { lexicon, cues } of readings) {
    let praise = lexicon;
    if (cues.requestOnly) praise *= tuning.requestDamping;
    if (cues.lukewarm && praise > 0) praise *= tuning.lukewarmDamping;
    if ((cues.problems >= 1 || ironic) && praise > 0) praise *= tuning.praiseBesideProblem;
    if (cues.notOurProblem || cues.denial) praise = Math.max(praise, 0);
    // A weak problem word in a sentence the lexicon finds positive is not a complaint ("much better since the update").
    const reported = cues.problems + (praise > 0 ? 0 : cues.weakProblems);
    const problems = cues.notOurProblem ? 0 : Math.min(reported, MAX_PROBLEMS) * (cues.request ? tuning.requestProblemFactor : 1);
    const reliefs = ironic ? 0 : cues.reliefs * (cues.request ? tuning.requestDamping : 1);
    const score = praise + tuning.reliefWeight * reliefs - tuning.problemWeight * problems;
    sum += score;
    worst = Math.min(worst, score);
  }
  const mean = sum / readings.length;
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
