import { detectAll } from 'tinyld';
import { deu, eng, fra, ita, nld, por, spa } from 'stopword';

/** Languages whose sentiment the service reads in the language itself (English, and nlp.js's lexicons). */
export const READ_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'nl', 'it'] as const;
export type ReadLanguage = (typeof READ_LANGUAGES)[number];

/**
 * Frequent words of feedback that the stop-word lists lack (English's list has no "no" or "not", the
 * Spanish one no "muy"): courtesy, negation, intensifiers, the verbs of reports, and the words of short
 * praise that only one language spells so ("empfehlenswert", "efficace", "recomendo"), which otherwise
 * left a three-word review unnamed and read by the English rule.
 */
const FEEDBACK_WORDS: Record<ReadLanguage, string[]> = {
  en: "no not so please thanks thank just why everything nothing it's i'm don't doesn't can't won't isn't didn't again works since already really".split(
    ' ',
  ),
  de: 'nicht kein keine sehr danke bitte immer noch schon seit funktioniert leider warum einfach empfehlenswert zufrieden klasse schnell'.split(
    ' ',
  ),
  fr: 'pas plus très merci bonjour toujours depuis fonctionne marche pourquoi vous nous rapide efficace facile outil logiciel'.split(
    ' ',
  ),
  es: 'muy gracias hola no funciona todavía desde siempre por qué pero también está herramienta recomiendo porfa tenéis podéis'.split(
    ' ',
  ),
  pt: 'não muito obrigado obrigada olá ainda desde sempre funciona está também mas recomendo adorei ferramenta equipe ótimo ótima você vocês'.split(
    ' ',
  ),
  nl: 'niet geen heel erg bedankt alsjeblieft nog steeds sinds werkt waarom makkelijk handig snel fijn gebruiken'.split(
    ' ',
  ),
  it: 'non molto grazie ciao ancora sempre funziona perché anche però'.split(' '),
};

const STOP_WORDS = Object.fromEntries(
  (
    Object.entries({ en: eng, de: deu, fr: fra, es: spa, pt: por, nl: nld, it: ita }) as Array<[ReadLanguage, string[]]>
  ).map(([language, list]) => [language, new Set([...list, ...FEEDBACK_WORDS[language]])]),
) as Record<ReadLanguage, Set<string>>;

/** Letters only one of the languages uses: a tie breaker where function words are shared (es/pt, de/nl). */
const OWN_LETTERS: Array<[RegExp, ReadLanguage]> = [
  [/[ãõ]|ç[aãoõu]/, 'pt'],
  [/[ñ¿¡]/, 'es'],
  [/[ßäöü]/, 'de'],
  [/[èêëœ]|ç/, 'fr'],
  [/\bij|ij\b/, 'nl'],
];

/** What the evidence must reach before the service names a language: otherwise it says null (unsure). */
const MIN_EVIDENCE = 2;
const MIN_MARGIN = 1;
/** A language outside READ_LANGUAGES is named on the trigram model's word alone, when it is this sure, in this many letters... */
const MIN_MODEL_ACCURACY = 0.5;
const MIN_MODEL_LETTERS = 15;
/** ... and, in Latin script, at least this many words ("CSV export please" is not Hungarian). */
const MIN_MODEL_WORDS = 5;
/** In a script without Latin letters, the model's first choice is named when it leads the second by this factor. */
const MIN_MODEL_LEAD = 1.3;

const WORD = /\p{L}+(?:'\p{L}+)?/gu;

export interface LanguageReading {
  /** ISO 639-1 code, or null when the evidence is thin (a few words, product names, mixed languages). */
  language: string | null;
  /**
   * True when the text is evidently not English even though its language may not be named (Cyrillic
   * script; two Romance languages tied): its sentiment must not be read with the English rule.
   */
  foreign: boolean;
}

/**
 * Short feedback defeats character-trigram models alone ("Export CSV" reads as Hungarian), so for the
 * languages the service reads, function words decide: each language scores one per stop word of its
 * own in the text, the tinyld model's first choice adds one and a half, and letters of one language's
 * spelling add one; the best needs `MIN_EVIDENCE` and a lead of `MIN_MARGIN`. Other languages
 * (Russian, Japanese...) are named when the model is sure of them and no read language has evidence.
 */
export function readLanguage(text: string): LanguageReading {
  const lower = text.toLowerCase();
  const words = lower.match(WORD) ?? [];
  if (words.length === 0) return { language: null, foreign: false };
  const guesses = detectAll(text);
  const [model, runnerUp] = guesses;
  const scores = READ_LANGUAGES.map((language) => {
    let own = 0;
    for (const word of words) if (STOP_WORDS[language].has(word)) own += 1;
    for (const [letters, owner] of OWN_LETTERS) if (owner === language && letters.test(lower)) own += 1;
    return { language, own, score: own + (model?.lang === language ? 1.5 : 0) };
  }).sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  const english = scores.find(({ language }) => language === 'en')!;
  // English is the default of a feedback inbox; another language needs words of its own, not the model's guess alone.
  // ... or, in a short text, one of its words that the model's first choice confirms and no English word.
  const evident =
    best.language === 'en' ||
    best.own >= MIN_EVIDENCE ||
    (best.own >= 1 && model?.lang === best.language && english.own === 0);
  if (evident && best.score >= MIN_EVIDENCE && best.score - second.score >= MIN_MARGIN)
    return { language: best.language, foreign: best.language !== 'en' };
  const letters = lower.replace(/[^\p{L}]/gu, '');
  const nonLatin = letters.length > 0 && !/[a-zà-ÿ]/.test(letters);
  const other = model && !(READ_LANGUAGES as readonly string[]).includes(model.lang) && /^[a-z]{2}$/.test(model.lang);
  const sure =
    model &&
    (model.accuracy >= MIN_MODEL_ACCURACY ||
      (nonLatin && model.accuracy >= MIN_MODEL_LEAD * (runnerUp?.accuracy ?? 0)));
  const long = nonLatin ? letters.length >= MIN_MODEL_LETTERS : words.length >= MIN_MODEL_WORDS;
  if (other && sure && long && best.score < MIN_EVIDENCE) return { language: model.lang, foreign: true };
  // Unsure which, but not English: words of a read language, the model agreeing it is one, and no English word.
  const notEnglish =
    best.own >= 1 &&
    english.own === 0 &&
    model !== undefined &&
    model.lang !== 'en' &&
    (READ_LANGUAGES as readonly string[]).includes(model.lang);
  return {
    language: null,
    foreign: nonLatin || notEnglish || (best.own >= MIN_EVIDENCE && english.own < MIN_EVIDENCE),
  };
}
