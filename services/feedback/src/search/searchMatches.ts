import { decodeChunk, scanChunk } from './data/postingCodec';
import type { Posting } from './data/indexStore';

const byteLength = (chunks: Uint8Array[]) => chunks.reduce((sum, chunk) => sum + chunk.length, 0);

/**
 * The sequence numbers (below `indexed`) of the items holding the term whose trigrams are `grams`: an item
 * matches at position p when every trigram t[i..i+3) starts at p + i. Per block, the rarest trigram's
 * items (fewest bytes) are decoded as the candidates with their possible starts; the other trigrams'
 * chunks are only scanned, their positions read for candidates alone, narrowing the starts. Common
 * trigrams ("por", "ort") hold most of the bytes, so nothing is built for their other items.
 */
export function matchedSeqs(
  grams: Array<{ gram: string; offset: number }>,
  postings: Posting[],
  indexed: number,
): number[] {
  const blocks = new Map<number, Map<string, Uint8Array[]>>();
  for (const { gram, block, chunks } of postings) {
    let byGram = blocks.get(block);
    if (!byGram) blocks.set(block, (byGram = new Map()));
    byGram.set(gram, [...(byGram.get(gram) ?? []), ...chunks]);
  }
  const matched: number[] = [];
  for (const [block, byGram] of blocks) {
    if (grams.some(({ gram }) => !byGram.has(gram))) continue;
    const ordered = [...grams].sort((a, b) => byteLength(byGram.get(a.gram)!) - byteLength(byGram.get(b.gram)!));
    const [rarest, ...rest] = ordered;
    const occurrences = new Map<number, number[]>();
    for (const chunk of byGram.get(rarest.gram)!) decodeChunk(block, chunk, occurrences);
    const starts = new Map<number, number[]>();
    for (const [seq, positions] of occurrences)
      if (seq < indexed)
        starts.set(
          seq,
          positions.map((position) => position - rarest.offset),
        );
    for (const { gram, offset } of rest) {
      // A candidate the trigram does not hold at all is out, as is one none of whose starts it confirms.
      const seen = new Set<number>();
      for (const chunk of byGram.get(gram)!) {
        scanChunk(block, chunk, starts, (seq, positions) => {
          seen.add(seq);
          const kept = starts.get(seq)!.filter((start) => positions.includes(start + offset));
          if (kept.length > 0) starts.set(seq, kept);
          else starts.delete(seq);
        });
      }
      for (const seq of starts.keys()) if (!seen.has(seq)) starts.delete(seq);
      if (starts.size === 0) break;
    }
    matched.push(...starts.keys());
  }
  return matched.sort((a, b) => a - b);
}
