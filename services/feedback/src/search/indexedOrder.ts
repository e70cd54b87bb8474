import type { CursorPosition } from '../core';
import type { IndexBlocks } from './indexBlocks';

/** An item of the unindexed tail, as read. */
interface TailItem {
  id: string;
  createdAt: Date;
}

/** One place of a page: an indexed item (its document not read yet) or a tail item (`doc`). */
export interface IndexedEntry<T extends TailItem = TailItem> {
  id: string;
  time: number;
  doc?: T;
}

/** The list's order: createdAt descending, then id descending. */
const newestFirst = (a: IndexedEntry, b: IndexedEntry) => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Places `skip` to `skip + count` of the union of indexed matches (`seqs`, with the ids and createdAt
 * their blocks keep) and tail items (read newest first, at least `skip + count` of them when there are),
 * in the list's order, after the cursor `after` when given.
 */
export function newestIndexed<T extends TailItem>(
  blocks: IndexBlocks,
  seqs: number[],
  tail: T[],
  after: CursorPosition | undefined,
  skip: number,
  count: number,
): Array<IndexedEntry<T>> {
  if (count === 0) return [];
  const entries: Array<IndexedEntry<T>> = [];
  const afterTime = after?.createdAt.getTime();
  for (const seq of seqs) {
    const id = blocks.idOf(seq);
    const time = blocks.timeOf(seq);
    if (id === null || time === null) continue;
    if (after && afterTime !== undefined && (time > afterTime || (time === afterTime && id >= after.id))) continue;
    entries.push({ id, time });
  }
  for (const doc of tail) entries.push({ id: doc.id, time: doc.createdAt.getTime(), doc });
  return entries.sort(newestFirst).slice(skip, skip + count);
}
