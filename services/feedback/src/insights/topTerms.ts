import winkNLP, { type ItemToken } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** Tokens and stop words only: the cheapest wink-nlp pipe that tells a stop word. */
const termsNlp = winkNLP(model, []);
const its = termsNlp.its;

/**
 * Counts words (lemmas would need the part-of-speech pipe, four times the cost) and two-word phrases of
 * texts, stop words, numbers and punctuation excluded; one `add` per text, so memory holds counts only.
 */
export class TermCounter {
  private readonly counts = new Map<string, number>();

  add(text: string): void {
    const words: string[] = [];
    termsNlp
      .readDoc(text)
      .tokens()
      .each((token: ItemToken) => {
        const word = (token.out(its.normal) as string).replace(/^'+|'+$/g, '');
        const kept = token.out(its.type) === 'word' && !token.out(its.stopWordFlag) && word.length > 2;
        words.push(kept ? word : '');
      });
    // Each term counts once per text: "refund refund refund" is one customer asking for a refund.
    const seen = new Set<string>();
    words.forEach((word, i) => {
      if (!word) return;
      seen.add(word);
      if (words[i + 1]) seen.add(`${word} ${words[i + 1]}`);
    });
    for (const term of seen) this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
  }

  /** The `limit` most frequent terms seen in at least two texts, most frequent first, then alphabetical. */
  top(limit: number): Array<{ term: string; count: number }> {
    return [...this.counts]
      .filter(([, count]) => count >= 2)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, limit)
      .map(([term, count]) => ({ term, count }));
  }
}
