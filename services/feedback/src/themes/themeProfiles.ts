import type { ItemVectors } from '../ai';
import type { Theme } from './data/themeModel';
import { themeProfileText } from './vectorMatching';

/** Profiles kept in memory (a taxonomy has at most 500 themes): past this the cache starts again. */
const MAX_PROFILES = 5_000;

/**
 * The vectors of curated themes' written profiles (label, description, keywords) under the embedding
 * model, kept in memory by text, so a profile is embedded once, not at every computation. Nothing waits
 * for the model: `of` answers at once, with every theme's vector or null; when some are missing it asks
 * the model for them in the background (one request per organization at a time) and calls `ready` when
 * they are in, so the organization is computed again. After a failure the organization's profiles are
 * not asked for again before `retryMs` has passed; `ready` is then called, so they are.
 */
export function themeProfiles(
  vectors: ItemVectors,
  ready: (orgId: string) => void,
  retryMs: number,
  clock: () => number = Date.now,
) {
  const cache = new Map<string, Float32Array>();
  const asking = new Set<string>();
  const failedAt = new Map<string, number>();
  const keyOf = (text: string) => `${vectors.model}\n${text}`;

  const failed = (orgId: string) => {
    failedAt.set(orgId, clock());
    setTimeout(() => ready(orgId), retryMs).unref();
  };

  const ask = async (orgId: string, texts: string[]) => {
    asking.add(orgId);
    try {
      const embedded = await vectors.embedTexts(orgId, texts);
      if (!embedded) return failed(orgId);
      if (cache.size + texts.length > MAX_PROFILES) cache.clear();
      texts.forEach((text, i) => cache.set(keyOf(text), embedded[i]));
      failedAt.delete(orgId);
      ready(orgId);
    } finally {
      asking.delete(orgId);
    }
  };

  return {
    /** Theme id → its profile's vector when every theme of `taxonomy` has one now; else null (and they are asked for). */
    of(orgId: string, taxonomy: readonly Theme[]): Map<string, Float32Array> | null {
      const texts = new Map(taxonomy.map((theme) => [theme.id, themeProfileText(theme)]));
      const missing = [...new Set([...texts.values()].filter((text) => !cache.has(keyOf(text))))];
      if (missing.length === 0) return new Map([...texts].map(([id, text]) => [id, cache.get(keyOf(text))!]));
      const lastFailure = failedAt.get(orgId);
      if (!asking.has(orgId) && (lastFailure === undefined || clock() - lastFailure >= retryMs))
        void ask(orgId, missing).catch(() => failed(orgId));
      return null;
    },
  };
}

export type ThemeProfiles = ReturnType<typeof themeProfiles>;
