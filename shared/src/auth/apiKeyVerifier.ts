import { hashApiKey, hashesEqual, isWellFormedApiKey } from './apiKey';
import type { ApiKeyRecord, ApiKeyStore } from './apiKeyStore';

interface CacheEntry {
  record: ApiKeyRecord | null;
  expiresAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/**
 * Verifies keys against the store with a short in-process cache, so a busy key costs one database
 * read per TTL. A revocation therefore takes effect within the TTL (AUTH_CACHE_TTL_MS). The cache is
 * keyed by the key itself, which this process holds anyway while it serves the key's requests: a
 * cached key is then answered without hashing it again on every request.
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
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.record;

    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookUp(key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async lookUp(key: string): Promise<ApiKeyRecord | null> {
    const hash = hashApiKey(key);
    const found = await this.store.findByHash(hash);
    const record = found && hashesEqual(found.hash, hash) && !found.record.revokedAt ? found.record : null;
    if (this.ttlMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
      this.cache.set(key, { record, expiresAt: Date.now() + this.ttlMs });
    }
    return record;
  }
}
