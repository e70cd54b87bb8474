import { decodeChunk } from './postingCodec';

/** A posting document as read: one trigram's chunks for one block. */
export interface Posting {
  gram: string;
  block: number;
  chunks: Uint8Array[];
}

/**
 * The sequence numbers (below `indexed`) of the items holding the term whose trigrams are `grams`: an item
 * matches at position p when every trigram t[i..i+3) starts at p + i. Per block, the rarest trigram's
 * items are the candidates, and each candidate's start positions are narrowed trigram by trigram.
 */
export function matchedSeqs(grams: Array<{ gram: string; offset: number }>, postings: Posting[], indexed: number): number[] {
  const blocks = new Map<number, Map<string, Map<number, number[]>>>();
  for (const { gram, block, chunks } of postings) {
    let byGram = blocks.get(block);
    if (!byGram) blocks.set(block, (byGram = new Map()));
    const occurrences = byGram.get(gram) ?? new Map<number, number[]>();
    for (const chunk of chunks) decodeChunk(block, chunk, occurrences);
    byGram.set(gram, occurrences);
  }
  const matched: number[] = [];
  for (const byGram of blocks.values()) {
    const lists = grams.map(({ gram, offset }) => ({ offset, occurrences: byGram.get(gram) }));
    if (lists.some(({ occurrences }) => !occurrences)) continue;
    const ordered = (lists as Array<{ offset: number; occurrences: Map<number, number[]> }>).sort((a, b) => a.occurrences.size - b.occurrences.size);
    const [rarest, ...rest] = ordered;
    for (const [seq, positions] of rarest.occurrences) {
      if (seq >= indexed) continue;
      let starts = positions.map((position) => position - rarest.offset);
      for (const { offset, occurrences } of rest) {
        const at = occurrences.get(seq);
        if (!at || starts.length === 0) {
          starts = [];
          break;
        }
        const here = new Set(at);
        starts = starts.filter((start) => here.has(start + offset));
      }
      if (starts.length > 0) matched.push(seq);
    }
  }
  return matched.sort((a, b) => a - b);
}
