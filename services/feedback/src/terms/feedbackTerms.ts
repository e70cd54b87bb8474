import winkNLP, { type ItemToken } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { PHRASES, SAME, SHOWN } from './feedbackConcepts';

/** Tokens, stems and stop words only: the cheapest wink-nlp pipe that tells them (about 0.3 ms a text). */
const termsNlp = winkNLP(model, []);
const its = termsNlp.its;
// wink-nlp's typings declare `its.stem` with the model's add-ons as a parameter, which `out` does not accept; it runs as any other.
const stemOf = its.stem as unknown as typeof its.normal;

/**
 * Words of almost any feedback text: they say nothing about what it is about, so they are kept out of
 * themes and top terms (similarity keeps them, weighed down by their frequency).
 */
export const GENERIC_STEMS = new Set(
  (
    'app applic product tool softwar platform team compani use get got need want pleas thank thanks like would could still one realli also just time ' +
    'new ago take took minut hour day week month year today yesterday morn user work make go know see look thing way lot bit much mani even everi ' +
    'sinc alway never can will us last first half tri seem feel think help issu problem bug error fix good great love nice bad terribl awesom amaz ' +
    'better best worst wors happi sad hello hi dear regard cheer ok okay yes yeah etc anyon someon everyon someth everyth anyth noth guy folk ' +
    'feedback custom client account option featur request idea suggest question anoth sure start set put call come say said tell told ask add show find give keep let allow abl possibl instead differ current sever whole right'
  ).split(' '),
);

export interface TermToken {
  /** Stem of the concept the word names (see feedbackConcepts.ts). */
  stem: string;
  /** Stem of the word itself. */
  word: string;
  /** The word as written (its case kept), or as a coined word is shown, for labels. */
  surface: string;
  generic: boolean;
}

/**
 * The content words of a text in order; `null` marks a break (punctuation or a stop word), so two-word
 * phrases are only made of neighbours.
 */
export function contentWords(text: string): Array<TermToken | null> {
  let spelled = text;
  for (const [pattern, replacement] of PHRASES) spelled = spelled.replace(pattern, replacement);
  const words: Array<TermToken | null> = [];
  termsNlp
    .readDoc(spelled)
    .tokens()
    .each((token: ItemToken) => {
      const normal = (token.out(its.normal) as string).replace(/^'+|'+$/g, '');
      const coined = SHOWN[normal];
      if (
        !coined &&
        (token.out(its.type) !== 'word' || token.out(its.stopWordFlag) || normal.length < 2 || /\d/.test(normal))
      ) {
        words.push(null);
        return;
      }
      const raw = token.out(stemOf) as string;
      const stem = SAME[raw] ?? raw;
      words.push({
        stem,
        word: raw,
        surface: coined ?? (token.out() as string),
        generic: GENERIC_STEMS.has(stem) || GENERIC_STEMS.has(raw),
      });
    });
  return words;
}

/**
 * Distinct terms of a text for similarity: the stem of each word and of the concept it names ("receipt"
 * and billing), filler words included (their rarity weighs them). No two-word phrases: another customer
 * telling the same problem seldom uses the same pair of words, and phrases would only lengthen the vectors.
 */
export function textTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of contentWords(text)) {
    if (!word) continue;
    terms.add(word.stem);
    terms.add(word.word);
  }
  return [...terms];
}

/** How a word is shown (labels, top terms): acronyms, names and coined words keep their case ("CSV", "GitHub", "Microsoft Teams"), other words are lower case. */
export const spellingOf = (token: TermToken): string =>
  /^[A-Z0-9]{2,}$/.test(token.surface) || /^[A-Z][a-z]+[A-Z]/.test(token.surface) || SHOWN_FORMS.has(token.surface)
    ? token.surface
    : token.surface.toLowerCase();
const SHOWN_FORMS = new Set(Object.values(SHOWN));

/** Counts of spellings per term, to show a term as people write it most often. */
export class Spellings {
  private readonly forms = new Map<string, Map<string, number>>();

  add(term: string, spelling: string): void {
    let forms = this.forms.get(term);
    if (!forms) this.forms.set(term, (forms = new Map()));
    forms.set(spelling, (forms.get(spelling) ?? 0) + 1);
  }

  /** The most frequent spelling (alphabetical among ties), or the term itself. */
  of(term: string): string {
    const forms = this.forms.get(term);
    return forms ? [...forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0] : term;
  }
}
