import type { IndexStore } from './data/indexStore';
import { decodeIds, encodeTimes } from './data/postingCodec';

/** Blocks given their times per pass (4,096 items each). */
const BLOCKS_PER_PASS = 4;

/**
 * Gives blocks written before the index kept each item's createdAt their times, a few per pass, read from
 * the items and their tombstones (a removed item whose tombstone was purged gets 0: it is gone, and a
 * search proves it gone before using its time). Until all of an organization's blocks have them its
 * searches read their matches from the items. Returns the blocks done.
 */
export async function backfillTimes(store: IndexStore, orgId: string): Promise<number> {
  let done = 0;
  for (const block of await store.untimedBlocks(orgId, BLOCKS_PER_PASS)) {
    const ids = decodeIds(block.ids);
    const times = new Map((await store.textsOf(orgId, ids)).map((text) => [text.id, text.createdAt?.getTime() ?? 0]));
    if (await store.setTimes(orgId, block.block, block.count, encodeTimes(ids.map((id) => times.get(id) ?? 0))))
      done += 1;
  }
  return done;
}
