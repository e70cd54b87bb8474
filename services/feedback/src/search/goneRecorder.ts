import type { ChangePosition } from '@fi/shared';
import type { IndexStore, Removal, SearchState } from './data/indexStore';
import { BLOCK_SIZE, decodeIds } from './data/postingCodec';
import { IndexBlocks } from './indexBlocks';

/** Removals read per pass: an organization with more records the rest in its next passes. */
const REMOVALS_PER_PASS = 5_000;

/**
 * Ids claimed beyond `next` by a pass cut off before it advanced: the next pass indexes them under their
 * numbers, whatever became of them meanwhile.
 */
async function claimedBeyond(store: IndexStore, orgId: string, state: SearchState): Promise<Set<string>> {
  const open = Math.floor(state.next / BLOCK_SIZE);
  return new Set(
    decodeIds((await store.block(orgId, open))?.ids ?? Buffer.alloc(0)).slice(state.next - open * BLOCK_SIZE),
  );
}

/**
 * Whether the gone list must wait at this removal, after the watermark: a merged item is indexed (from its
 * tombstone) once the watermark passes it, as is a deleted one claimed by a pass cut off; any other deleted
 * item is never indexed, so there is nothing to record of it.
 */
const waitsFor = (removal: Removal, claimed: Set<string>) => removal.kind === 'merged' || claimed.has(removal.id);

/**
 * Records which indexed items left the live items in the index's gone list, from the organization's
 * tombstones in the order they were stamped, up to `before` (now minus the grace: a tombstone is stamped
 * before its item goes): deleted items for good, merged ones apart (an unmerge brings one back: searches
 * check those). Deletions' tombstones are purged after CHANGES_KEPT_MS; the list keeps what they said, so
 * a search can count the live matches without reading them (indexedSearchPage.ts). A deletion whose
 * item is still live failed (a retry is stamped anew) and is not recorded. Returns the removals recorded.
 */
export async function recordRemovals(
  store: IndexStore,
  orgId: string,
  state: SearchState,
  before: Date,
): Promise<number> {
  const { watermark } = state;
  if (!watermark) return 0;
  const removals = await store.removalsAfter(orgId, state.goneAfter, before, REMOVALS_PER_PASS);
  if (removals.length === 0) return 0;
  const blocks = new IndexBlocks(await store.allBlocks(orgId, state), state.next);
  const claimed = removals.some((removal) => removal.id > watermark)
    ? await claimedBeyond(store, orgId, state)
    : new Set<string>();
  const merged = new Set(state.merged);
  const deleted: Array<{ seq: number; id: string }> = [];
  let last: ChangePosition | null = null;
  for (const removal of removals) {
    if (removal.id > watermark && waitsFor(removal, claimed)) break;
    last = removal;
    const seq = removal.id > watermark ? null : blocks.seqOf(removal.id);
    if (seq === null) continue;
    if (removal.kind === 'merged') merged.add(seq);
    else deleted.push({ seq, id: removal.id });
  }
  if (!last) return 0;
  const live = await store.liveAmong(
    orgId,
    deleted.map(({ id }) => id),
  );
  const gone = new Set(state.gone);
  for (const { seq, id } of deleted) {
    if (live.has(id)) continue;
    gone.add(seq);
    // A merged item deleted for good is no longer one that may come back.
    merged.delete(seq);
  }
  const recorded = await store.recordGone(
    orgId,
    state.goneAfter,
    { gone: [...gone].sort((a, b) => a - b), merged: [...merged].sort((a, b) => a - b) },
    last,
  );
  return recorded ? gone.size + merged.size - state.gone.length - state.merged.length : 0;
}

/** True when the organization has removals the gone list can record now (see recordRemovals). */
export async function hasRemovalsToRecord(
  store: IndexStore,
  orgId: string,
  state: SearchState | null,
  before: Date,
): Promise<boolean> {
  if (!state?.watermark) return false;
  const [first] = await store.removalsAfter(orgId, state.goneAfter, before, 1);
  // A merged item after the watermark is work too: the pass indexes it from its tombstone.
  return first !== undefined;
}
