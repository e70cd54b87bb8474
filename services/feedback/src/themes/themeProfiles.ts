import type { ItemVectors } from '../ai';
import type { Theme } from './data/themeModel';
import { themeProfileText } from './vectorMatching';

/** Profiles kept in memory (a taxonomy has at most 500 themes): past this the cache starts again. */
const MAX_PROFILES = 5_000;

/**
 * The vectors of curated themes' written profiles (label, description, keywords) under the embedding
 * model, kept in memory by text, so a profile is embedded once, not at every computation. Missing ones are
 * asked for (one request per organization at a time) and waited for a little: a changed taxonomy is then
 * assigned in one computation, by the vectors, instead of one by terms rewriting the items and a second by
 * the vectors rewriting them again. When they come in after the wait, `ready` is called, so the
 * organization is computed again. After a failure the organization's profiles are not asked
 * for again before `retryMs` has passed; `ready` is then called, so they are.
 */
export function themeProfiles(
  vectors: ItemVectors,
  ready: (orgId: string) => void,
  retryMs: number,
  clock: () => number = Date.now,
) {
  const cache = new Map<string, Float32Array>();
  /** The request under way per organization. */
  const asking = new Map<string, Promise<void>>();
  /** Organizations whose request a computation waits for: it uses the vectors itself, no `ready` needed. */
  const awaited = new Set<string>();
  const failedAt = new Map<string, number>();
  const keyOf = (text: string) => `${vectors.model}\n${text}`;

  const failed = (orgId: string) => {
    failedAt.set(orgId, clock());
    setTimeout(() => ready(orgId), retryMs).unref();
  };

  const ask = async (orgId: string, texts: string[]) => {
    const embedded = await vectors.embedTexts(orgId, texts);
    if (!embedded) return failed(orgId);
    if (cache.size + texts.length > MAX_PROFILES) cache.clear();
    texts.forEach((text, i) => cache.set(keyOf(text), embedded[i]));
    failedAt.delete(orgId);
    if (!awaited.has(orgId)) ready(orgId);
  };

  /** Theme id → its profile's vector when every theme of `taxonomy` has one in the cache; else the texts missing. */
  const lookup = (taxonomy: readonly Theme[]) => {
    const texts = new Map(taxonomy.map((theme) => [theme.id, themeProfileText(theme)]));
    const missing = [...new Set([...texts.values()].filter((text) => !cache.has(keyOf(text))))];
    const found = missing.length === 0 ? new Map([...texts].map(([id, text]) => [id, cache.get(keyOf(text))!])) : null;
    return { found, missing };
  };

  /** Theme id → its profile's vector when every theme of `taxonomy` has one now; else null (and they are asked for). */
  const of = (orgId: string, taxonomy: readonly Theme[]): Map<string, Float32Array> | null => {
    const { found, missing } = lookup(taxonomy);
    if (found) return found;
    const lastFailure = failedAt.get(orgId);
    if (!asking.has(orgId) && (lastFailure === undefined || clock() - lastFailure >= retryMs)) {
      const request = ask(orgId, missing)
        .catch(() => failed(orgId))
        .finally(() => asking.delete(orgId));
      asking.set(orgId, request);
    }
    return null;
  };

  return {
    /**
     * Theme id → its profile's vector when every theme of `taxonomy` has one; else null. Missing profiles are
     * asked for, and a request started now is waited for up to `waitMs` (one an earlier computation started,
     * or a slow or failing model, gives null at once or after the wait: the terms assign meanwhile).
     */
    async settled(
      orgId: string,
      taxonomy: readonly Theme[],
      waitMs: number,
    ): Promise<Map<string, Float32Array> | null> {
      const before = asking.get(orgId);
      const found = of(orgId, taxonomy);
      const request = asking.get(orgId);
      if (found || !request || request === before) return found;
      awaited.add(orgId);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      try {
        await Promise.race([request, timedOut]);
      } finally {
        clearTimeout(timer);
        // From here a request still under way calls `ready` when its vectors come in (the terms assign now).
        awaited.delete(orgId);
      }
      return lookup(taxonomy).found;
    },
  };
}

export type ThemeProfiles = ReturnType<typeof themeProfiles>;
