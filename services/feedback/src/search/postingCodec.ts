/**
 * Compact forms of the search index's documents: a posting chunk lists, for one trigram and one block of
 * sequence numbers, the items holding it with the positions where it starts (varints of deltas); a block
 * lists the items of its sequence numbers (12-byte ObjectIds end to end).
 */

/** Sequence numbers per block: a block's ids are written once it is full (the open one while it fills). */
export const BLOCK_SIZE = 4_096;

/** One item's occurrences of a trigram: its sequence number and its start positions, ascending. */
export interface Occurrence {
  seq: number;
  positions: number[];
}

function pushVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
}

/** Occurrences in ascending sequence order (each chunk starts from its block's first sequence number). */
export function encodeChunk(block: number, occurrences: Occurrence[]): Buffer {
  const bytes: number[] = [];
  let previous = block * BLOCK_SIZE;
  for (const { seq, positions } of occurrences) {
    pushVarint(bytes, seq - previous);
    previous = seq;
    pushVarint(bytes, positions.length);
    let at = 0;
    for (const position of positions) {
      pushVarint(bytes, position - at);
      at = position;
    }
  }
  return Buffer.from(bytes);
}

/**
 * Adds a chunk's occurrences to `into` (sequence number -> positions). A chunk written twice (a pass
 * resumed after a crash writes its chunks again) gives the same positions again: they replace them.
 */
export function decodeChunk(block: number, chunk: Uint8Array, into: Map<number, number[]>): void {
  let offset = 0;
  const next = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = chunk[offset++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  let seq = block * BLOCK_SIZE;
  while (offset < chunk.length) {
    seq += next();
    const count = next();
    const positions: number[] = new Array(count);
    let at = 0;
    for (let i = 0; i < count; i += 1) {
      at += next();
      positions[i] = at;
    }
    into.set(seq, positions);
  }
}

const ID_BYTES = 12;

/** A block's Binary of hex ids, in sequence order. */
export const encodeIds = (hexIds: string[]): Buffer => Buffer.from(hexIds.join(''), 'hex');

/** The hex ids of a block's Binary, in sequence order. */
export function decodeIds(bytes: Uint8Array): string[] {
  const ids: string[] = [];
  for (let at = 0; at + ID_BYTES <= bytes.length; at += ID_BYTES) ids.push(Buffer.from(bytes.subarray(at, at + ID_BYTES)).toString('hex'));
  return ids;
}
