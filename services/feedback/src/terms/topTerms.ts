import { rememberRecent } from '../core';
import { contentWords, spellingOf, Spellings } from './feedbackTerms';

/** A text's terms: each as written where it occurs (term, spelling), and the distinct terms. */
interface TextTerms {
  spelled: Array<[string, string]>;
  terms: string[];
}

function readTerms(text: string): TextTerms {
  const words = contentWords(text);
  // Each term counts once per text: "refund refund refund" is one customer asking for a refund.
  const seen = new Set<string>();
  const spelled: Array<[string, string]> = [];
  words.forEach((word, i) => {
    if (!word || word.generic || word.stem.length < 3) return;
    seen.add(word.stem);
    spelled.push([word.stem, spellingOf(word)]);
    const next = words[i + 1];
    if (next && !next.generic) {
      const phrase = `${word.stem} ${next.stem}`;
      seen.add(phrase);
      spelled.push([phrase, `${spellingOf(word)} ${spellingOf(next)}`]);
    }
  });
  return { spelled, terms: [...seen] };
}

/**
 * Texts whose terms are remembered: twice the texts one `topTerms` reads, so the insights of a range asked
 * again, or of a range beside it, read the language model only for the items that are new to it (a cold
 * read of 2,000 texts took 0.2-0.5 s of the service's time).
 */
const REMEMBERED_TEXTS = 4_000;
const termsOf = rememberRecent(readTerms, (text) => (text.length > 2_000 ? null : text), REMEMBERED_TEXTS);

/**
 * Counts the meaningful words and two-word phrases of texts: feedback's filler ("team", "new", "ago",
 * "minute", see `GENERIC_STEMS`), stop words and numbers are left out, inflections count as one word
 * ("fails", "failing") shown as written most often, and synonyms of feedback count together ("log in",
 * "sign in"). One `add` per text, so memory holds counts only.
 */
export class TermCounter {
  private readonly counts = new Map<string, number>();
  private readonly spellings = new Spellings();

  add(text: string): void {
    const { spelled, terms } = termsOf(text);
    for (const [term, spelling] of spelled) this.spellings.add(term, spelling);
    for (const term of terms) this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
  }

  /**
   * The `limit` most frequent terms seen in at least two texts, most frequent first, then alphabetical;
   * a word is left out when a phrase it starts or ends is listed with at least 60% of its count ("dark
   * mode" says what "dark" and "mode" would).
   */
  top(limit: number): Array<{ term: string; count: number }> {
    const ranked = [...this.counts]
      .filter(([, count]) => count >= 2)
      .sort(([a, x], [b, y]) => y - x || this.spellings.of(a).localeCompare(this.spellings.of(b)));
    const phrases = ranked.filter(([term]) => term.includes(' '));
    const covered = (word: string, count: number) =>
      phrases.some(([phrase, n]) => phrase.split(' ').includes(word) && n >= count * 0.6);
    return ranked
      .filter(([term, count]) => term.includes(' ') || !covered(term, count))
      .slice(0, limit)
      .map(([term, count]) => ({ term: this.spellings.of(term), count }));
  }
}
