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

export const isForeignReadable = (language: string | null): language is ForeignLanguage =>
  language !== null && language in READERS;

/** Weights of the foreign reading; set by hand and checked on the tuning half of the multilingual evaluation set. */
export const FOREIGN_TUNING = {
  /** Weight of nlp.js's lexicon score (mean of the words it knows, negation flipping the next three). */
  lexiconWeight: 0.5,
  cueWeight: 0.6,
  /**
   * Without any cue of the language's feedback, the lexicon alone decides only when it is at least this
   * sure; otherwise the reading abstains (null) rather than guess. A question or request whose lexicon is
   * this negative is no plain question either. Its lexicons are noisy ("crasht" and "trava" read as
   * praise), so the bar is high: 0.5 let single misread words decide.
   */
  lexiconAlone: 0.75,
  negativeAtMost: -0.25,
  positiveAtLeast: 0.25,
};

export type ForeignTuning = typeof FOREIGN_TUNING;

export interface ForeignReading {
  score: number;
  /** Null when the text gave no clear verdict in its language (abstaining beats a wrong reading). */
  sentiment: 'positive' | 'neutral' | 'negative' | null;
}

/** Lower case without accents, as nlp.js's stemmers and the cues expect. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[’‘`]/g, "'");

/**
 * nlp.js's lexicon reading: the mean polarity of the known stems, a negation flipping the next three words,
 * and how many different stems it knew.
 */
function lexiconReading(language: ForeignLanguage, text: string): { score: number; stems: number } {
  const { stemmer, lexicon, negations } = READERS[language];
  let sum = 0;
  let hits = 0;
  const known = new Set<string>();
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
      known.add(token);
    }
    negated = Math.max(0, negated - 1);
  }
  return { score: hits === 0 ? 0 : Math.max(-1, Math.min(1, sum / hits)), stems: known.size };
}

/**
 * "de 40 para 15 licenças", "von 20 auf 35 Lizenzen": fewer seats is leaving, more is committing, in any of
 * the languages (on text without accents).
 */
const SEAT_CHANGE =
  /\b(?:de|von|van|da|from)\s+(\d+)\s+(?:para|auf|naar|a|to)\s+(\d+)\s+(?:\w+\s+)?(?:licen\w*|lizenz\w*|nutzer\w*|usuarios?|utilisateurs?|gebruikers?|utenti|seats?|platze|sitze|postes|sieges|puestos|assentos|plekken|plaatsen)\b/;

const seatChange = (lower: string): -1 | 0 | 1 => {
  const change = SEAT_CHANGE.exec(lower);
  if (!change) return 0;
  return Number(change[1]) > Number(change[2]) ? -1 : 1;
};

/** Sentences of a text: ends of sentence followed by more text. */
const sentenceCount = (text: string) => 1 + (text.match(/[.!?]+\s+(?=\S)/g)?.length ?? 0);

/**
 * A text in one of the foreign languages read: its feedback cues (problems, churn, sarcasm, praise,
 * renewals) and nlp.js's lexicon. "It is okay" and a one-sentence question or request without a problem
 * are neutral (a longer one is not read); a text with no cue at all is read from the lexicon only when the
 * lexicon is sure, else not at all. A mixed text is read by its verdict, as in English.
 */
export function readForeign(
  language: ForeignLanguage,
  text: string,
  tuning: ForeignTuning = FOREIGN_TUNING,
): ForeignReading {
  const whole = readWhole(language, text, tuning);
  const cut = FOREIGN_CUES[language].but.exec(text.toLowerCase());
  if (!cut) return whole;
  // "Etwas teuer, aber jeden Cent wert", "Um modo escuro seria legal, mas fora isso está perfeito": the
  // clause after "but" is the verdict when it reads as one. Praise after a conceded problem is a mixed text
  // whose weights the cues cannot tell ("crashes, but support is great"): no reading rather than a guess.
  const verdict = readWhole(language, text.slice(cut.index + cut[0].length), tuning);
  if (verdict.sentiment === null || verdict.sentiment === 'neutral') return whole;
  const conceded = readWhole(language, text.slice(0, cut.index), tuning);
  return verdict.sentiment === 'positive' && conceded.sentiment === 'negative'
    ? { score: 0, sentiment: null }
    : verdict;
}

function readWhole(language: ForeignLanguage, text: string, tuning: ForeignTuning): ForeignReading {
  const cues = FOREIGN_CUES[language];
  const lower = plain(text).trim().replace(/^[¿¡]/, '');
  let problems = 0;
  for (const pattern of cues.problems) if (pattern.test(lower)) problems += 1;
  if (cues.negation.test(lower)) problems += 1;
  if (cues.rhetorical.test(lower)) problems += 1;
  if (cues.sarcasm.test(lower)) problems += 1;
  const seats = seatChange(lower);
  if (seats < 0) problems += 1;
  // As in English: praise words beside a problem or in a mocking text are no praise ("Super, schon wieder...").
  const reading = lexiconReading(language, text);
  const lexicon = problems > 0 ? Math.min(0, reading.score) : reading.score;
  const round = (value: number) => Math.round(Math.max(-1, Math.min(1, value)) * 1000) / 1000;
  if (problems === 0 && cues.lukewarm.test(lower)) return { score: 0, sentiment: 'neutral' };
  const question = lower.endsWith('?');
  const committed = seats > 0 || cues.commitment.test(lower);
  const asks = cues.request.test(lower) || (question && !cues.praise.some((p) => p.test(lower)));
  // A commitment asked for is one ("Bitte auf Business upgraden"); asked about, it may be a question about the renewal date.
  if (problems === 0 && asks && !(committed && !question)) {
    // A question or request is neutral when it is only that: one sentence whose words the lexicon does
    // not find negative. A longer one, or one with negative words, may be a polite complaint whose problem
    // no cue of the language names ("..., seit Montag ... Könnten Sie das prüfen?"): no reading rather than
    // a wrong one.
    const plainAsk = !committed && lexicon > -tuning.lexiconAlone && sentenceCount(lower) === 1;
    return { score: 0, sentiment: plainAsk ? 'neutral' : null };
  }
  const praise = problems > 0 ? 0 : cues.praise.filter((pattern) => pattern.test(lower)).length + (committed ? 1 : 0);
  // A renewal or thanks is not undone by a word the lexicon reads as negative ("acabamos de...").
  const read = praise > 0 ? Math.max(0, lexicon) : lexicon;
  // One known word, however often, is no verdict: the lexicons misread single words ("para" stems to "par", -1).
  const lexiconUnsure = Math.abs(lexicon) < tuning.lexiconAlone || reading.stems < 2;
  if (problems === 0 && praise === 0 && lexiconUnsure)
    return { score: round(tuning.lexiconWeight * read), sentiment: null };
  const score = round(tuning.lexiconWeight * read + tuning.cueWeight * (praise - Math.min(problems, 2)));
  const sentiment =
    score <= tuning.negativeAtMost ? 'negative' : score >= tuning.positiveAtLeast ? 'positive' : 'neutral';
  return { score, sentiment };
}
