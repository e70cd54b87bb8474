import type { AiStore } from './data/aiStore';
import type { ItemVectors } from './itemVectors';
import type { ModelClient } from './modelClient';
import { ModelUnavailable } from './modelFailure';

/** An organization's vectors are read again when asked for and this long has passed since the last read. */
const REFRESH_AFTER_MS = 2_000;
/** Vectors stored by other instances in the same seconds need not arrive in order: each read overlaps this much. */
const OVERLAP_MS = 10_000;
/** Organizations whose vectors stay in memory (least recently asked for leaves first). */
const MAX_ORGANIZATIONS = 20;

interface OrgEntry {
  /** Vectors of length 1, so a dot product is their cosine. */
  vectors: Map<string, Float32Array>;
  /** When each held vector was stored (ms), so a refresh reads only the vectors stored since. */
  storedAt: Map<string, number>;
  newest: Date | null;
  refreshedAt: number;
  refreshing?: Promise<void>;
}

const unit = (vector: Float32Array) => {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  return norm === 0 ? vector : vector.map((x) => x / norm);
};

/** Whether a found item goes before another: higher score first, then lower id (as `nearest` answers). */
const before = (a: { id: string; score: number }, b: { id: string; score: number }) =>
  a.score > b.score || (a.score === b.score && a.id < b.id);

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
};

/**
 * The stored vectors of the embedding model (see ai/modelWork.ts for how they are made): each instance
 * keeps an organization's vectors in memory, read once and then refreshed with those stored since, so a
 * nearest-items question compares in memory (10,000 items of 768 dimensions: about 8 million products).
 * Texts are embedded only where a client is given (the worker); elsewhere `embedTexts` answers null.
 */
export function storedItemVectors(
  store: AiStore,
  model: string,
  client: ModelClient | null,
  clock: () => number = Date.now,
): ItemVectors {
  const entries = new Map<string, OrgEntry>();

  const refresh = async (orgId: string, entry: OrgEntry) => {
    const startedAt = clock();
    const keep = ({ id, vector, at }: { id: string; vector: Float32Array; at: Date }) => {
      entry.vectors.set(id, unit(vector));
      entry.storedAt.set(id, at.getTime());
      if (!entry.newest || at > entry.newest) entry.newest = at;
    };
    if (!entry.newest) for (const stored of await store.allVectors(orgId, model)) keep(stored);
    else {
      // The overlap holds every vector of a bulk import's last seconds: their times are read, and only the
      // vectors not held yet (or stored again since) are, instead of thousands of vectors every 2 s.
      const times = await store.vectorTimesSince(orgId, model, new Date(entry.newest.getTime() - OVERLAP_MS));
      const wanted = times.filter(({ id, at }) => (entry.storedAt.get(id) ?? -1) < at.getTime()).map(({ id }) => id);
      if (wanted.length > 0) for (const stored of await store.vectorsWithTimes(orgId, model, wanted)) keep(stored);
    }
    entry.refreshedAt = startedAt;
  };

  const entryOf = async (orgId: string, maxAgeMs = REFRESH_AFTER_MS) => {
    let entry = entries.get(orgId);
    if (entry) entries.delete(orgId);
    else entry = { vectors: new Map(), storedAt: new Map(), newest: null, refreshedAt: -Infinity };
    entries.set(orgId, entry);
    if (entries.size > MAX_ORGANIZATIONS) entries.delete(entries.keys().next().value!);
    if (clock() - entry.refreshedAt >= maxAgeMs) {
      const current = entry;
      current.refreshing ??= refresh(orgId, current).finally(() => (current.refreshing = undefined));
      await current.refreshing;
    }
    return entry;
  };

  return {
    model,
    of: (orgId, itemIds) => store.vectorsOf(orgId, model, itemIds),
    // Read up to now: the caller computes from the vectors its stamp counted.
    all: async (orgId) => (await entryOf(orgId, 0)).vectors,
    async stamp(orgId) {
      const { count, newest } = await store.vectorStamp(orgId, model);
      return `${model}:${count}:${newest?.getTime() ?? 0}`;
    },
    async embedTexts(orgId, texts) {
      if (!client || texts.length === 0) return client ? [] : null;
      try {
        return await client.embed(orgId, model, texts);
      } catch (error) {
        if (error instanceof ModelUnavailable) return null;
        throw error;
      }
    },
    async nearest(orgId, itemId, take, minScore) {
      const { vectors } = await entryOf(orgId);
      const own = vectors.get(itemId);
      if (!own) return null;
      if (take <= 0) return [];
      // The best `take` kept as the scan goes (thousands may clear minScore: sorting them all cost more than the products).
      const best: Array<{ id: string; score: number }> = [];
      for (const [id, vector] of vectors) {
        if (id === itemId || vector.length !== own.length) continue;
        const raw = dot(own, vector);
        if (raw < minScore) continue;
        const score = Math.min(1, Math.round(raw * 1000) / 1000);
        if (best.length === take && !before({ id, score }, best[take - 1])) continue;
        let at = best.length === take ? take - 1 : best.length;
        while (at > 0 && before({ id, score }, best[at - 1])) {
          best[at] = best[at - 1];
          at -= 1;
        }
        best[at] = { id, score };
      }
      return best;
    },
    compared(orgId, itemIds) {
      const vectors = entries.get(orgId)?.vectors;
      return new Set(vectors ? itemIds.filter((id) => vectors.has(id)) : []);
    },
  };
}
