import { contentWords, spellingOf, Spellings } from '../textTerms/feedbackTerms';

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
    const words = contentWords(text);
    // Each term counts once per text: "refund refund refund" is one customer asking for a refund.
    const seen = new Set<string>();
    words.forEach((word, i) => {
      if (!word || word.generic || word.stem.length < 3) return;
      seen.add(word.stem);
      this.spellings.add(word.stem, spellingOf(word));
      const next = words[i + 1];
      if (next && !next.generic) {
        const phrase = `${word.stem} ${next.stem}`;
        seen.add(phrase);
        this.spellings.add(phrase, `${spellingOf(word)} ${spellingOf(next)}`);
      }
    });
    for (const term of seen) this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
  }

  /**
   * The `limit` most frequent terms seen in at least two texts, most frequent first, then alphabetical;
   * a word is left out when a phrase it starts or ends is listed with at least 60% of its count ("dark
   * mode" says what "dark" and "mode" would).
   */
  top(limit: number): Array<{ term: string; count: number }> {
    const ranked = [...this.counts].filter(([, count]) => count >= 2).sort(([a, x], [b, y]) => y - x || this.spellings.of(a).localeCompare(this.spellings.of(b)));
    const phrases = ranked.filter(([term]) => term.includes(' '));
    const covered = (word: string, count: number) => phrases.some(([phrase, n]) => phrase.split(' ').includes(word) && n >= count * 0.6);
    return ranked
      .filter(([term, count]) => term.includes(' ') || !covered(term, count))
      .slice(0, limit)
      .map(([term, count]) => ({ term: this.spellings.of(term), count }));
  }
}
