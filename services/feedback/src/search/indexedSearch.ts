import type { IndexStore, SearchState } from './data/indexStore';
import { IndexBlocks } from './indexBlocks';
import { matchedSeqs } from './searchMatches';
import { termGrams } from './searchText';

/** The index as a search reads it first: items after its watermark are not indexed yet, they are matched by regex. */
export type IndexedState = SearchState & { watermark: string };

/** What the index answers for a term: the indexed items holding it, and where the index ends. */
export interface SearchScope {
  /** Sequence numbers of the indexed items holding the term (live or not), ascending. */
  seqs: number[];
  state: IndexedState;
  blocks: IndexBlocks;
}

/**
 * The organization's index when it can answer `search`; null for a term of fewer than three characters
 * (or holding the field separator), or an organization not indexed yet.
 */
export async function indexedState(
  store: IndexStore,
  orgId: string,
  search: string | undefined,
): Promise<IndexedState | null> {
  if (search === undefined || !termGrams(search)) return null;
  const state = await store.state(orgId);
  return state?.watermark ? { ...state, watermark: state.watermark } : null;
}

/**
 * The items the index proves hold `search`: the postings of the term's trigrams (one read) and the
 * organization's blocks (full ones are kept in memory). The state was read first, so postings written
 * after it are ignored (their items are in the tail, after the watermark).
 */
export async function searchScope(
  store: IndexStore,
  orgId: string,
  search: string,
  state: IndexedState,
): Promise<SearchScope> {
  const grams = termGrams(search) ?? [];
  const [postings, blocks] = await Promise.all([
    store.postingsOf(orgId, [...new Set(grams.map(({ gram }) => gram))]),
    store.allBlocks(orgId, state),
  ]);
  return { seqs: matchedSeqs(grams, postings, state.next), state, blocks: new IndexBlocks(blocks, state.next) };
}

/** The ids of a scope's matches (hex), for reading them from the items. */
export const scopeIds = (scope: SearchScope): string[] => scope.seqs.flatMap((seq) => scope.blocks.idOf(seq) ?? []);
