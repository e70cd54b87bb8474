import type { SearchIndexStore, SearchState } from '../data/searchIndexStore';
import { IndexBlocks } from './indexBlocks';
import { matchedSeqs } from './searchMatches';
import { termGrams } from './searchText';

/** What the index answers for a term: the indexed items holding it, and where the index ends. */
export interface SearchScope {
  /** Sequence numbers of the indexed items holding the term (live or not), ascending. */
  seqs: number[];
  /** The index as read first: items after its watermark are not indexed yet, they are matched by regex. */
  state: SearchState & { watermark: string };
  blocks: IndexBlocks;
}

/**
 * The items the index proves hold `search`, or null when the index cannot answer: a term of fewer than
 * three characters (or holding the field separator), or an organization not indexed yet. Reads the
 * organization's state, then the postings of the term's trigrams (one read), then its blocks (full ones
 * are kept in memory); the state is read first, so postings written after it are ignored (their items
 * are in the tail, after the watermark).
 */
export async function searchScope(store: SearchIndexStore, orgId: string, search: string | undefined): Promise<SearchScope | null> {
  const grams = search === undefined ? null : termGrams(search);
  if (!grams) return null;
  const state = await store.state(orgId);
  if (!state?.watermark) return null;
  const [postings, blocks] = await Promise.all([store.postingsOf(orgId, [...new Set(grams.map(({ gram }) => gram))]), store.allBlocks(orgId, state)]);
  return { seqs: matchedSeqs(grams, postings, state.next), state: { ...state, watermark: state.watermark }, blocks: new IndexBlocks(blocks, state.next) };
}

/** The ids of a scope's matches (hex), for reading them from the items. */
export const scopeIds = (scope: SearchScope): string[] => scope.seqs.flatMap((seq) => scope.blocks.idOf(seq) ?? []);
