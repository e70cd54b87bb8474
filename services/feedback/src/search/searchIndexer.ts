import { firstIdHexAt, runPasses, type BackgroundWorker, type Logger } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import type { IndexedText, IndexStore } from './data/indexStore';
import {
  BLOCK_SIZE,
  decodeIds,
  decodeTimes,
  encodeChunk,
  encodeIds,
  encodeTimes,
  type Occurrence,
} from './data/postingCodec';
import { gramPositions, itemText } from './searchText';
import { hasRemovalsToRecord, recordRemovals } from './goneRecorder';
import { backfillTimes } from './timesBackfill';
import { openImportsReader, type OpenImports, type OpenImportSince } from './openImports';

/**
 * The index with what the indexer reads beside it: the organizations that have feedback (the kept counts)
 * and the import batches still being written (the change stream), joined where the service is put together.
 */
export type IndexSources = IndexStore & {
  openImports(limit?: number): Promise<OpenImports>;
  organizations(): Promise<string[]>;
};

/** An instance indexing an organization holds it this long, renewed at every batch. */
const LEASE_MS = 2 * 60_000;
/** The organization list is read at most this often (see CountStore.organizations). */
const ORGANIZATIONS_EVERY_MS = 60_000;

export interface IndexerOptions {
  /** Items younger than this are left to the next pass (see indexOrganization). */
  graceMs: number;
  /** Stops between batches when it answers true (the service is closing). */
  stopped?: () => boolean;
  /** Where the open import batches are read (kept a while by the background indexer); by default at every batch. */
  openImportSince?: OpenImportSince;
}

/** The greatest `_id` (hex) a pass takes: the first of the second of now minus the grace. */
const upToOf = (now: Date, graceMs: number) => firstIdHexAt(new Date(now.getTime() - graceMs));
/**
 * ... and never one an import batch still being written may commit behind: a batch's ids are made just before
 * it is recorded, and its writer may take longer than the grace (50,000 items: minutes on a busy machine).
 * Two seconds spare for the making of its ids.
 */
async function upToNow(openImportSince: OpenImportSince, orgId: string, now: Date, graceMs: number): Promise<string> {
  const upTo = upToOf(now, graceMs);
  const importing = await openImportSince(orgId);
  if (!importing) return upTo;
  const beforeImport = firstIdHexAt(new Date(importing.getTime() - 2_000));
  return beforeImport < upTo ? beforeImport : upTo;
}
/** Removals stamped before this are recorded in the gone list (a removal takes far less than the grace). */
const removedBefore = (now: Date, graceMs: number) => new Date(now.getTime() - graceMs);

/** The chunks of one batch: per trigram, the batch's items holding it, in sequence order. */
function chunksOf(block: number, first: number, texts: IndexedText[]): Map<string, Buffer> {
  const byGram = new Map<string, Occurrence[]>();
  texts.forEach((text, i) => {
    for (const [gram, positions] of gramPositions(itemText(text))) {
      const occurrences = byGram.get(gram);
      const occurrence = { seq: first + i, positions };
      if (occurrences) occurrences.push(occurrence);
      else byGram.set(gram, [occurrence]);
    }
  });
  return new Map([...byGram].map(([gram, occurrences]) => [gram, encodeChunk(block, occurrences)]));
}

/**
 * Indexes one organization's new items (the caller holds its lease): reads them in `_id` order after the
 * watermark, up to the `_id` of now minus the grace (a write takes far less, so no item with a smaller
 * `_id` can still commit after the pass has gone by it) and before any import batch still being written,
 * assigns them the next sequence numbers, and
 * writes per batch: the block's ids first (the claim on the sequence numbers: a second instance's claim
 * of the same numbers fails), then one posting chunk per trigram, then the new watermark. A pass cut off
 * after its claim leaves the block holding more ids than the state: the next pass indexes those ids again
 * with the same numbers (a chunk written twice decodes to the same positions). Then it records the
 * organization's removals in the gone list (see goneRecorder.ts). Returns the items indexed.
 */
export async function indexOrganization(
  store: IndexSources,
  orgId: string,
  options: IndexerOptions,
  now = () => new Date(),
): Promise<number> {
  let state = (await store.state(orgId)) ?? {
    next: 0,
    watermark: null,
    workMs: 0,
    epoch: '',
    gone: [],
    merged: [],
    goneAfter: null,
  };
  let indexed = 0;
  const openImportSince = options.openImportSince ?? openImportsReader(store, 0);
  // A pass cut off between its claim and its watermark.
  const open = Math.floor(state.next / BLOCK_SIZE);
  const started = Date.now();
  const claimed = decodeIds((await store.block(orgId, open))?.ids ?? Buffer.alloc(0));
  const inBlock = state.next - open * BLOCK_SIZE;
  if (claimed.length > inBlock) {
    const ids = claimed.slice(inBlock);
    const found = new Map((await store.textsOf(orgId, ids)).map((text) => [text.id, text]));
    // An item removed since is indexed as empty text: its number stays taken, and it matches nothing.
    const texts = ids.map((id) => found.get(id) ?? { id });
    await store.addPostings(orgId, open, chunksOf(open, state.next, texts), false);
    const last = ids[ids.length - 1];
    if (!(await store.advance(orgId, state.next, state.next + ids.length, last, Date.now() - started))) return indexed;
    state = { ...state, next: state.next + ids.length, watermark: last };
    indexed += ids.length;
  }
  while (!options.stopped?.()) {
    const upTo = await upToNow(openImportSince, orgId, now(), options.graceMs);
    if (state.watermark && state.watermark >= upTo) break;
    const batchStarted = Date.now();
    const block = Math.floor(state.next / BLOCK_SIZE);
    const room = (block + 1) * BLOCK_SIZE - state.next;
    const read = await store.textsAfter(orgId, state.watermark, upTo, room);
    // Merged items read beside the live ones may overflow the block: the rest waits for the next batch.
    const texts = read.slice(0, room);
    if (texts.length === 0) break;
    // No item between the last one read and `upTo` can commit any more (the grace): the watermark may
    // be either; the last item's keeps every later item in the tail even under a clock set ahead.
    const through = texts[texts.length - 1].id;
    const inThisBlock = state.next - block * BLOCK_SIZE;
    const stored = inThisBlock === 0 ? null : await store.block(orgId, block);
    const before = decodeIds(stored?.ids ?? Buffer.alloc(0)).slice(0, inThisBlock);
    // A block without times for all its items (written before times were kept) stays without them until
    // the backfill gives them (its searches read the items meanwhile).
    const storedTimes = decodeTimes(stored?.times ?? Buffer.alloc(0));
    const beforeTimes = storedTimes.length < inThisBlock ? null : storedTimes.slice(0, inThisBlock);
    const ids = encodeIds([...before, ...texts.map((text) => text.id)]);
    const times = beforeTimes
      ? encodeTimes([...beforeTimes, ...texts.map((text) => text.createdAt?.getTime() ?? 0)])
      : null;
    if (!(await store.claimBlock(orgId, block, inThisBlock, inThisBlock + texts.length, ids, times))) break;
    await store.addPostings(orgId, block, chunksOf(block, state.next, texts), inThisBlock === 0);
    if (!(await store.advance(orgId, state.next, state.next + texts.length, through, Date.now() - batchStarted))) break;
    state = { ...state, next: state.next + texts.length, watermark: through };
    indexed += texts.length;
    if (read.length < room) break;
  }
  if (options.stopped?.()) return indexed;
  const current = await store.state(orgId);
  if (current) await recordRemovals(store, orgId, current, removedBefore(now(), options.graceMs));
  return indexed;
}

/**
 * Keeps every organization's search index current in the background: every `intervalMs`, each
 * organization's new items and removals older than the grace are indexed by whichever instance takes its
 * lease first, and blocks written before times were kept get them.
 * Searches match the items after the watermark by regex meanwhile, so the index never hides an item.
 */
export function startSearchIndexer(
  store: IndexSources,
  intervalMs: number,
  graceMs: number,
  logger: Logger,
): BackgroundWorker {
  const holder = newObjectIdHex();
  const openImportSince = openImportsReader(store, graceMs / 2);
  let organizations: { at: number; ids: string[] } | null = null;
  // Organizations whose blocks all have their times: blocks are written with them, so once is enough.
  const timed = new Set<string>();
  const pass = async (closed: () => boolean) => {
    if (!organizations || Date.now() - organizations.at > ORGANIZATIONS_EVERY_MS)
      organizations = { at: Date.now(), ids: await store.organizations() };
    for (const orgId of organizations.ids) {
      if (closed()) return;
      // Three reads per organization without new items or removals (the open import batches are read every half
      // grace for all of them); a lease (a write) only when there is work.
      const state = await store.state(orgId);
      const now = new Date();
      const untimed = !timed.has(orgId) && (await store.untimedBlocks(orgId, 1)).length > 0;
      if (!untimed) timed.add(orgId);
      // Up to where a pass would stop (before an import batch still being written), so that no lease is taken for items a pass may not index yet.
      const upTo = await upToNow(openImportSince, orgId, now, graceMs);
      if (
        !untimed &&
        !(await store.hasItemsAfter(orgId, state?.watermark ?? null, upTo)) &&
        !(await hasRemovalsToRecord(store, orgId, state, removedBefore(now, graceMs)))
      )
        continue;
      if (!(await store.lease(orgId, holder, LEASE_MS))) continue;
      const started = Date.now();
      let renewed = Date.now();
      const stopped = () => {
        if (closed()) return true;
        // Renewing is a write: once a quarter of the lease at most.
        if (Date.now() - renewed > LEASE_MS / 4) {
          renewed = Date.now();
          void store.lease(orgId, holder, LEASE_MS).catch(() => undefined);
        }
        return false;
      };
      const items = await (async () => {
        if (untimed) await backfillTimes(store, orgId);
        return indexOrganization(store, orgId, { graceMs, stopped, openImportSince });
      })().finally(() => store.release(orgId, holder));
      if (items > 0) logger.info({ orgId, items, ms: Date.now() - started }, 'feedback search index updated');
    }
  };
  return runPasses(intervalMs, pass, (error) => logger.warn({ err: error }, 'feedback search indexing failed'));
}
