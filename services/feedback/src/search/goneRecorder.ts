import type { ChangePosition } from '@fi/shared';
import type { SearchIndexStore, SearchState } from '../data/searchIndexStore';
import { IndexBlocks } from './indexBlocks';

/** Removals read per pass: an organization with more records the rest in its next passes. */
const REMOVALS_PER_PASS = 5_000;

/**
 * Records which indexed items left the live items (removed, or merged into another) in the index's gone
 * list, from the organization's tombstones in the order they were stamped, up to `before` (now minus the
 * grace: a tombstone is stamped before its item goes). Deletions' tombstones are purged after
 * CHANGES_KEPT_MS; the list keeps what they said, so a search can count the live matches without reading
 * them (search/indexedPage.ts). A tombstone whose item the index has not passed yet stops the pass: a
 * merged item is indexed once the watermark passes it. The list is never shortened: an unmerged item stays
 * in it, and a search checks that the items it names are gone.
 */
export async function recordRemovals(store: SearchIndexStore, orgId: string, state: SearchState, before: Date): Promise<number> {
  const { watermark } = state;
  if (!watermark) return 0;
  const removals = await store.removalsAfter(orgId, state.goneAfter, before, REMOVALS_PER_PASS);
  if (removals.length === 0 || removals[0].id > watermark) return 0;
  const blocks = new IndexBlocks(await store.allBlocks(orgId, state), state.next);
  const gone = new Set(state.gone);
  let last: ChangePosition = removals[0];
  for (const removal of removals) {
    if (removal.id > watermark) break;
    const seq = blocks.seqOf(removal.id);
    if (seq !== null) gone.add(seq);
    last = removal;
  }
  const recorded = await store.recordGone(orgId, state.goneAfter, [...gone].sort((a, b) => a - b), last);
  return recorded ? gone.size - state.gone.length : 0;
}

/** True when the organization has removals the gone list can record now (see recordRemovals). */
export async function hasRemovalsToRecord(store: SearchIndexStore, orgId: string, state: SearchState | null, before: Date): Promise<boolean> {
  if (!state?.watermark) return false;
  const [first] = await store.removalsAfter(orgId, state.goneAfter, before, 1);
  return first !== undefined && first.id <= state.watermark;
}
