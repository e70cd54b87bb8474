/**
 * The service's figures on labelled texts, read as a new item is (language first, then the sentiment in
 * that language). Aggregates only: nothing here prints a text, so a held-out file can be scored without
 * anyone reading its texts or its errors.
 */
import { readFileSync } from 'node:fs';
import { givenPath } from './givenPath';
import { readFeedback, type FeedbackReading } from '../src/core/domain/sentiment/feedbackSentiment';
import type { Sentiment } from '../src/core/domain/sentiment/analyzeSentiment';

export interface LabelledText {
  label: Sentiment;
  /** Absent in the sets that have content only. */
  title?: string;
  content: string;
  /** The language of a text in another language, as its author wrote it. */
  lang?: string;
  /** What kind of feedback the text is (churn, flat_bug, question...), when its set says. */
  kind?: string;
}

const readings = new Map<LabelledText, FeedbackReading>();
/** The service's whole reading, remembered: the evaluation asks for it several times. */
export const serviceReading = (text: LabelledText): FeedbackReading => {
  if (!readings.has(text)) readings.set(text, readFeedback(text.title ?? '', text.content));
  return readings.get(text)!;
};

export interface EnglishOutcome {
  texts: number;
  accuracy: number;
  negativeRecall: number;
  /** Wrong readings per kind (per label when the set has no kinds). */
  errorsByKind: Record<string, number>;
}

/** The service's sentiment on English texts (an English text read as another language is a miss). */
export function serviceOutcome(set: LabelledText[]): EnglishOutcome {
  let right = 0;
  let negatives = 0;
  let caught = 0;
  const errorsByKind: Record<string, number> = {};
  for (const text of set) {
    const { sentiment } = serviceReading(text);
    if (sentiment === text.label) right += 1;
    else errorsByKind[text.kind ?? text.label] = (errorsByKind[text.kind ?? text.label] ?? 0) + 1;
    if (text.label === 'negative') {
      negatives += 1;
      if (sentiment === 'negative') caught += 1;
    }
  }
  return { texts: set.length, accuracy: right / set.length, negativeRecall: caught / negatives, errorsByKind };
}

export interface LanguageOutcome {
  texts: number;
  /** The author's language named. */
  identified: number;
  /** The sentiment is the label or null (no reading rather than a wrong one). */
  rightOrNull: number;
  right: number;
  negatives: number;
  caught: number;
}

/** The service on texts of another language: language named, sentiment right or absent. */
export function languageOutcome(set: LabelledText[]): LanguageOutcome {
  const o: LanguageOutcome = { texts: set.length, identified: 0, rightOrNull: 0, right: 0, negatives: 0, caught: 0 };
  for (const text of set) {
    const { language, sentiment } = serviceReading(text);
    if (language === text.lang) o.identified += 1;
    if (sentiment === null || sentiment === text.label) o.rightOrNull += 1;
    if (sentiment === text.label) o.right += 1;
    if (text.label === 'negative') {
      o.negatives += 1;
      if (sentiment === 'negative') o.caught += 1;
    }
  }
  return o;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * `npm run eval:sentiment -- --set FILE.jsonl`: any file of the evaluation sets' format (`label`,
 * `content`, optional `title`, `kind`, `lang`), every line scored whatever its split. English texts (no
 * `lang`, or "en") give accuracy, negative recall and errors per kind; texts in other languages give the
 * language named, sentiment right or null, and wrong.
 */
export function printFileFigures(file: string): void {
  const texts = readFileSync(givenPath(file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledText);
  const english = texts.filter((text) => text.lang === undefined || text.lang === 'en');
  const other = texts.filter((text) => !english.includes(text));
  console.log(`${file}: ${texts.length} texts (${english.length} English, ${other.length} in other languages)`);
  if (english.length > 0) {
    const o = serviceOutcome(english);
    const kinds = Object.entries(o.errorsByKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    console.log(
      `- English (${o.texts}): accuracy ${pct(o.accuracy)}, negative recall ${pct(o.negativeRecall)}; errors by kind: ${kinds || 'none'}`,
    );
  }
  if (other.length > 0) {
    const o = languageOutcome(other);
    console.log(
      `- other languages (${o.texts}): language identified ${pct(o.identified / o.texts)}, sentiment right or null ${pct(o.rightOrNull / o.texts)}, ` +
        `wrong ${pct(1 - o.rightOrNull / o.texts)}, right ${pct(o.right / o.texts)}, negatives caught ${pct(o.caught / o.negatives)}`,
    );
  }
}
