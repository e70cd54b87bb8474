import { SentimentDe, StemmerDe } from '@nlpjs/lang-de';
import { SentimentEs, StemmerEs } from '@nlpjs/lang-es';
import { SentimentFr, StemmerFr } from '@nlpjs/lang-fr';
import { SentimentIt, StemmerIt } from '@nlpjs/lang-it';
import { SentimentNl, StemmerNl } from '@nlpjs/lang-nl';
import { SentimentPt, StemmerPt } from '@nlpjs/lang-pt';
import { FOREIGN_CUES } from './foreignCues';

export type ForeignLanguage = keyof typeof FOREIGN_CUES;

interface Reader {
  stemmer: { tokenizeAndStem(text: string, keepStops?: boolean): string[] };
  lexicon: Record<string, number>;
  negations: Set<string>;
}

const reader = (stemmer: Reader['stemmer'], lexicon: NlpjsSentimentLexicon): Reader => ({
  stemmer,
  // nlp.js's own preference when a language has several: senticon, then pattern, then afinn.
  lexicon: (lexicon.senticon ?? lexicon.pattern ?? lexicon.afinn)!,
  negations: new Set(lexicon.negations.words),
});

const READERS: Record<ForeignLanguage, Reader> = {
  de: reader(new StemmerDe(), SentimentDe),
  fr: reader(new StemmerFr(), SentimentFr),
  es: reader(new StemmerEs(), SentimentEs),
  pt: reader(new StemmerPt(), SentimentPt),
  nl: reader(new StemmerNl(), SentimentNl),
  it: reader(new StemmerIt(), SentimentIt),
};

export const isForeignReadable = (language: string | null): language is ForeignLanguage => language !== null && language in READERS;

/** Weights of the foreign reading; chosen on the tuning data of the multilingual evaluation set. */
export const FOREIGN_TUNING = {
  /** Weight of nlp.js's lexicon score (mean of the words it knows, negation flipping the next three). */
  lexiconWeight: 0.5,
  cueWeight: 0.6,
  negativeAtMost: -0.25,
  positiveAtLeast: 0.25,
};

/** Lower case without accents, as nlp.js's stemmers and the cues expect. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’‘`]/g, "'");

/** nlp.js's lexicon reading: the mean polarity of the known stems, a negation flipping the next three words. */
function lexiconScore(language: ForeignLanguage, text: string): number {
  const { stemmer, lexicon, negations } = READERS[language];
  let sum = 0;
  let hits = 0;
  let negated = 0;
  for (const token of stemmer.tokenizeAndStem(text, true)) {
    if (negations.has(token)) {
      negated = 3;
      continue;
    }
    const polarity = lexicon[token];
    if (polarity !== undefined && polarity !== 0) {
      sum += negated > 0 ? -polarity : polarity;
      hits += 1;
    }
    negated = Math.max(0, negated - 1);
  }
  return hits === 0 ? 0 : Math.max(-1, Math.min(1, sum / hits));
}

/** Score of a text in one of the foreign languages read, -1 to 1: the lexicon plus the language's feedback cues. */
export function scoreForeign(language: ForeignLanguage, text: string, tuning = FOREIGN_TUNING): number {
  const cues = FOREIGN_CUES[language];
  const lower = plain(text);
  let problems = 0;
  for (const pattern of cues.problems) if (pattern.test(lower)) problems += 1;
  if (cues.negation.test(lower)) problems += 1;
  if (cues.rhetorical.test(lower.replace(/^[¿¡]/, ''))) problems += 1;
  const praise = problems > 0 ? 0 : cues.praise.filter((pattern) => pattern.test(lower)).length;
  const score = tuning.lexiconWeight * lexiconScore(language, text) + tuning.cueWeight * (praise - Math.min(problems, 2));
  return Math.round(Math.max(-1, Math.min(1, score)) * 1000) / 1000;
}
