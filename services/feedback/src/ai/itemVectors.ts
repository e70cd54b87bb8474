/**
 * The vectors of an organization's items under the configured embedding model: what `similar`, the
 * automatic themes and the assignment to curated themes compare when a model is plugged in.
 */
export interface ItemVectors {
  /** The embedding model whose vectors these are; null when none is configured (callers use the local methods). */
  readonly model: string | null;
  /** The stored vectors of these items of the organization under the current model; items not embedded yet are absent. */
  of(orgId: string, itemIds: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Every stored vector of the organization under the current model (of length 1), kept in memory and refreshed with those stored since. */
  all(orgId: string): Promise<ReadonlyMap<string, Float32Array>>;
  /** A short text that changes whenever a vector of the organization is stored (the theme computation then runs again). */
  stamp(orgId: string): Promise<string>;
  /** Vectors of free texts (e.g. a curated theme's label, description and keywords), or null when no model answers now. */
  embedTexts(orgId: string, texts: readonly string[]): Promise<Float32Array[] | null>;
  /**
   * The organization's embedded items closest to the item (never itself), best first, with their cosine
   * similarity, at least `minScore`; null when the item has no vector yet (callers use the local method).
   */
  nearest(
    orgId: string,
    itemId: string,
    take: number,
    minScore: number,
  ): Promise<Array<{ id: string; score: number }> | null>;
  /** The items among `itemIds` whose vectors the organization's last `nearest` compared (from memory, no read). */
  compared(orgId: string, itemIds: readonly string[]): Set<string>;
}

/** No embedding model: no vectors, and no request ever leaves the service. */
export const noItemVectors: ItemVectors = {
  model: null,
  of: () => Promise.resolve(new Map()),
  all: () => Promise.resolve(new Map()),
  stamp: () => Promise.resolve(''),
  embedTexts: () => Promise.resolve(null),
  nearest: () => Promise.resolve(null),
  compared: () => new Set(),
};

/** Cosine similarity of two vectors of one model (0 when either is all zeros). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}
