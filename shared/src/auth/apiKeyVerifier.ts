import { hashApiKey, hashesEqual, isWellFormedApiKey } from './apiKey';
import type { ApiKeyRecord, ApiKeyStore } from './apiKeyStore';

interface CacheEntry {
  record: ApiKeyRecord | null;
  expiresAt: number;
}

export const MAX_CACHE_ENTRIES = 10_000;

/**
 * Verifies keys against the store with a short in-process cache, so a busy key costs one database
 * read per TTL. A revocation therefore takes effect within the TTL (AUTH_CACHE_TTL_MS). The cache is
 * keyed by the key itself, which this process holds anyway while it serves the key's requests: a
 * cached key is then answered without hashing it again on every request. The cache is least recently
 * used: when full, the key unused longest leaves, so a flood of new (guessed) keys cannot empty it of
 * the keys in use.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<ApiKeyRecord | null>>();

  constructor(
    private readonly store: ApiKeyStore,
    private readonly ttlMs: number,
  ) {}

  /** The key's record when it is well formed, known and not revoked; otherwise null. */
  async verify(key: unknown): Promise<ApiKeyRecord | null> {
    if (!isWellFormedApiKey(key)) return null;
    const cached = this.cached(key);
    if (cached !== undefined) return cached;

    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookUp(key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * What the cache knows of `key` without asking the store: its record, null for a key known to be
   * invalid (or malformed), undefined when only the store could tell.
   */
  peek(key: unknown): ApiKeyRecord | null | undefined {
    return isWellFormedApiKey(key) ? this.cached(key) : null;
  }

  private cached(key: string): ApiKeyRecord | null | undefined {
    const entry = this.cache.get(key);
    if (!entry) return undefined;
    this.cache.delete(key);
    if (entry.expiresAt <= Date.now()) return undefined;
    // Re-inserted, so the Map's order is the order of last use and its first key the least recently used.
    this.cache.set(key, entry);
    return entry.record;
  }

  private async lookUp(key: string): Promise<ApiKeyRecord | null> {
    const hash = hashApiKey(key);
    const found = await this.store.findByHash(hash);
    const record = found && hashesEqual(found.hash, hash) && !found.record.revokedAt ? found.record : null;
    if (this.ttlMs > 0) {
      this.cache.delete(key);
      if (this.cache.size >= MAX_CACHE_ENTRIES) {
        const leastRecentlyUsed = this.cache.keys().next().value;
        if (leastRecentlyUsed !== undefined) this.cache.delete(leastRecentlyUsed);
      }
      this.cache.set(key, { record, expiresAt: Date.now() + this.ttlMs });
    }
    return record;
  }
}
