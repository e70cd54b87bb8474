import type { SearchIndexStore } from '../data/searchIndexStore';
import { BLOCK_SIZE } from './postingCodec';
import { matchedSeqs } from './searchMatches';
import { termGrams } from './searchText';

/** What the index answers for a term: the indexed items holding it, and where the index ends. */
export interface SearchScope {
  /** Indexed items holding the term (live or not: the read of the items checks that). */
  ids: string[];
  /** Items after this `_id` (hex) are not indexed yet: they are matched by regex. */
  watermark: string;
}

const ID_BYTES = 12;

/**
 * The items the index proves hold `search`, or null when the index cannot answer: a term of fewer than
 * three characters (or holding the field separator), or an organization not indexed yet. Reads the
 * organization's state, then the postings of the term's trigrams (one read), then the blocks of the
 * matches; the state is read first, so postings written after it are ignored (their items are in the
 * tail, after the watermark).
 */
export async function searchScope(store: SearchIndexStore, orgId: string, search: string | undefined): Promise<SearchScope | null> {
  const grams = search === undefined ? null : termGrams(search);
  if (!grams) return null;
  const state = await store.state(orgId);
  if (!state?.watermark) return null;
  const postings = await store.postingsOf(orgId, [...new Set(grams.map(({ gram }) => gram))]);
  const seqs = matchedSeqs(grams, postings, state.next);
  const blocks = await store.blocksOf(orgId, [...new Set(seqs.map((seq) => Math.floor(seq / BLOCK_SIZE)))]);
  const ids: string[] = [];
  for (const seq of seqs) {
    const bytes = blocks.get(Math.floor(seq / BLOCK_SIZE));
    const at = (seq % BLOCK_SIZE) * ID_BYTES;
    if (bytes && at + ID_BYTES <= bytes.length) ids.push(bytes.subarray(at, at + ID_BYTES).toString('hex'));
  }
  return { ids, watermark: state.watermark };
}
