import { textTerms } from '../terms';
import type { ItemText } from './data/similarityStore';

/** An item as the index holds it: its id and text. */
export type IndexedItem = ItemText;

/** Terms seen in more than this share of the items are too common to propose candidates. */
const MAX_CANDIDATE_SHARE = 0.5;

/**
 * An organization's items as sets of terms (see `textTerms`) with an inverted index, for cosine
 * similarity of binary term vectors weighed by inverse document frequency: two items are similar when
 * they share rare terms ("SAML", "receipt") rather than common ones ("slow"). Only the terms of the
 * item asked about propose candidates (terms of most items are left out of that, not of the score),
 * so a question costs its terms' posting lists, not the organization.
 */
export class SimilarityIndex {
  private readonly terms = new Map<string, string[]>();
  private readonly postings = new Map<string, Set<string>>();

  get size(): number {
    return this.terms.size;
  }

  has(id: string): boolean {
    return this.terms.has(id);
  }

  add(item: IndexedItem): void {
    if (this.terms.has(item.id)) return;
    const terms = termsOf(item);
    this.terms.set(item.id, terms);
    for (const term of terms) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = new Set()));
      posting.add(item.id);
    }
  }

  remove(id: string): void {
    const terms = this.terms.get(id);
    if (!terms) return;
    this.terms.delete(id);
    for (const term of terms) {
      const posting = this.postings.get(term);
      posting?.delete(id);
      if (posting?.size === 0) this.postings.delete(term);
    }
  }

  private idf(term: string): number {
    const df = this.postings.get(term)?.size ?? 0;
    return Math.log(1 + (this.terms.size + 1) / (df + 1));
  }

  private norm(terms: string[]): number {
    let sum = 0;
    for (const term of terms) sum += this.idf(term) ** 2;
    return Math.sqrt(sum);
  }

  /**
   * The items most similar to `item` (never itself), best first, with their cosine similarity (0-1),
   * at least `minScore`; `exclude` names items that must not be proposed.
   */
  similar(
    item: IndexedItem,
    take: number,
    minScore: number,
    exclude: ReadonlySet<string> = new Set(),
  ): Array<{ id: string; score: number }> {
    const terms = this.terms.get(item.id) ?? termsOf(item);
    const queryNorm = this.norm(terms);
    if (queryNorm === 0 || take === 0) return [];
    const query = new Set(terms);
    const candidates = new Set<string>();
    const common = Math.max(2, this.terms.size * MAX_CANDIDATE_SHARE);
    for (const term of query) {
      const posting = this.postings.get(term);
      if (posting && posting.size <= common) for (const id of posting) candidates.add(id);
    }
    const scored: Array<{ id: string; score: number }> = [];
    for (const id of candidates) {
      if (id === item.id || exclude.has(id)) continue;
      const other = this.terms.get(id)!;
      let product = 0;
      for (const term of other) if (query.has(term)) product += this.idf(term) ** 2;
      const score = product / (queryNorm * this.norm(other));
      if (score >= minScore) scored.push({ id, score: Math.min(1, Math.round(score * 1000) / 1000) });
    }
    return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, take);
  }
}

const termsOf = (item: IndexedItem) => textTerms(`${item.title}. ${item.content}`);
