/** A block of the search index as read: its sequence numbers' ids (12 bytes each) and createdAt (Float64 LE). */
export interface StoredBlock {
  block: number;
  count: number;
  ids: Buffer;
  /** Null for a block written before the index kept times. */
  times: Buffer | null;
}

const sizeOf = (block: StoredBlock) => block.ids.length + (block.times?.length ?? 0);

/**
 * Full blocks kept in memory, least recently used first out, up to `maxBytes`: a full block never
 * changes, so a search reads only the open block and those not kept.
 */
export class BlockCache {
  private readonly blocks = new Map<string, StoredBlock>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): StoredBlock | undefined {
    const block = this.blocks.get(key);
    if (block) {
      // Map order is insertion order: moving it last makes it the most recently used.
      this.blocks.delete(key);
      this.blocks.set(key, block);
    }
    return block;
  }

  set(key: string, block: StoredBlock): void {
    const previous = this.blocks.get(key);
    if (previous) this.bytes -= sizeOf(previous);
    this.blocks.delete(key);
    this.blocks.set(key, block);
    this.bytes += sizeOf(block);
    for (const [oldest, kept] of this.blocks) {
      if (this.bytes <= this.maxBytes) break;
      this.blocks.delete(oldest);
      this.bytes -= sizeOf(kept);
    }
  }
}
