import { BLOCK_SIZE } from './data/postingCodec';
import type { StoredBlock } from './data/blockCache';

const ID_BYTES = 12;
const TIME_BYTES = 8;

/**
 * The index's sequence numbers 0..next-1 as its blocks hold them: each one's item id and createdAt, and
 * the number of an id. Ids grow with their numbers (a pass reads the items after the watermark in `_id`
 * order), so an id is found by binary search.
 */
export class IndexBlocks {
  /** By block number. */
  private readonly blocks: Array<StoredBlock | undefined>;

  constructor(
    byNumber: Map<number, StoredBlock>,
    readonly next: number,
  ) {
    this.blocks = Array.from({ length: Math.ceil(next / BLOCK_SIZE) }, (_, block) => byNumber.get(block));
  }

  /** True when every number's id and time are at hand (blocks written before times were kept have none). */
  get timed(): boolean {
    return this.blocks.every((block) => block?.times && block.times.length / TIME_BYTES >= block.ids.length / ID_BYTES);
  }

  private at(seq: number): { block: StoredBlock; i: number } | null {
    const block = this.blocks[Math.floor(seq / BLOCK_SIZE)];
    const i = seq % BLOCK_SIZE;
    return block && seq < this.next && (i + 1) * ID_BYTES <= block.ids.length ? { block, i } : null;
  }

  idBytes(seq: number): Buffer | null {
    const found = this.at(seq);
    return found ? found.block.ids.subarray(found.i * ID_BYTES, (found.i + 1) * ID_BYTES) : null;
  }

  idOf(seq: number): string | null {
    return this.idBytes(seq)?.toString('hex') ?? null;
  }

  /** The item's createdAt in milliseconds, or null when its block keeps no times. */
  timeOf(seq: number): number | null {
    const found = this.at(seq);
    const times = found?.block.times;
    return times && (found.i + 1) * TIME_BYTES <= times.length ? times.readDoubleLE(found.i * TIME_BYTES) : null;
  }

  /** The number of an indexed item (below `next`), or null when the index does not hold it. */
  seqOf(idHex: string): number | null {
    const id = Buffer.from(idHex, 'hex');
    let low = 0;
    let high = this.next - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const here = this.idBytes(middle);
      if (!here) return null;
      const order = Buffer.compare(here, id);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return null;
  }
}
