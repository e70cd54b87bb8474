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

/** Reads a chunk's varints: a cursor over its bytes. */
function varints(chunk: Uint8Array) {
  let offset = 0;
  return {
    more: () => offset < chunk.length,
    next: () => {
      let value = 0;
      let scale = 1;
      for (;;) {
        const byte = chunk[offset++];
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) return value;
        scale *= 0x80;
      }
    },
    /** Steps over `count` varints without reading their values. */
    skip: (count: number) => {
      for (let left = count; left > 0; offset += 1) if (chunk[offset] < 0x80) left -= 1;
    },
  };
}

/** The positions of one occurrence, the cursor standing on its count. */
function positionsOf(cursor: ReturnType<typeof varints>): number[] {
  const count = cursor.next();
  const positions: number[] = new Array(count);
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    at += cursor.next();
    positions[i] = at;
  }
  return positions;
}

/**
 * Adds a chunk's occurrences to `into` (sequence number -> positions). A chunk written twice (a pass
 * resumed after a crash writes its chunks again) gives the same positions again: they replace them.
 */
export function decodeChunk(block: number, chunk: Uint8Array, into: Map<number, number[]>): void {
  const cursor = varints(chunk);
  let seq = block * BLOCK_SIZE;
  while (cursor.more()) {
    seq += cursor.next();
    into.set(seq, positionsOf(cursor));
  }
}

/** Calls `found` with the positions of the chunk's occurrences whose sequence numbers `wanted` holds; steps over the others. */
export function scanChunk(
  block: number,
  chunk: Uint8Array,
  wanted: ReadonlyMap<number, unknown>,
  found: (seq: number, positions: number[]) => void,
): void {
  const cursor = varints(chunk);
  let seq = block * BLOCK_SIZE;
  while (cursor.more()) {
    seq += cursor.next();
    if (wanted.has(seq)) found(seq, positionsOf(cursor));
    else cursor.skip(cursor.next());
  }
}

const ID_BYTES = 12;

/** A block's Binary of hex ids, in sequence order. */
export const encodeIds = (hexIds: string[]): Buffer => Buffer.from(hexIds.join(''), 'hex');

/** The hex ids of a block's Binary, in sequence order. */
export function decodeIds(bytes: Uint8Array): string[] {
  const ids: string[] = [];
  for (let at = 0; at + ID_BYTES <= bytes.length; at += ID_BYTES)
    ids.push(Buffer.from(bytes.subarray(at, at + ID_BYTES)).toString('hex'));
  return ids;
}

const TIME_BYTES = 8;

/** A block's createdAt times (milliseconds), in sequence order: Float64 LE, exact for any date. */
export function encodeTimes(times: number[]): Buffer {
  const bytes = Buffer.alloc(times.length * TIME_BYTES);
  times.forEach((time, i) => bytes.writeDoubleLE(time, i * TIME_BYTES));
  return bytes;
}

export function decodeTimes(bytes: Uint8Array): number[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: Math.floor(buffer.length / TIME_BYTES) }, (_, i) => buffer.readDoubleLE(i * TIME_BYTES));
}
