import { generateApiKey, hashApiKey } from '../src/auth/apiKey';
import type { ApiKeyRecord, ApiKeyStore } from '../src/auth/apiKeyStore';
import { ApiKeyVerifier, MAX_CACHE_ENTRIES } from '../src/auth/apiKeyVerifier';

/** A key store that knows `valid` keys and counts its reads (the verifier's cache is what is tested). */
function countingStore(valid: Set<string>) {
  const reads: string[] = [];
  const store = {
    async findByHash(hash: string) {
      reads.push(hash);
      const key = [...valid].find((candidate) => hashApiKey(candidate) === hash);
      if (!key) return null;
      const record: ApiKeyRecord = { id: `key_${hash.slice(0, 8)}`, orgId: 'org', tier: 'free', readOnly: false, rateLimitPerMinute: null, createdAt: new Date(), revokedAt: null, hint: key.slice(0, 8) };
      return { record, hash };
    },
  };
  return { store: store as unknown as ApiKeyStore, reads };
}

describe('the key cache', () => {
  test('when it is full, then the least recently used key leaves, not the whole cache', async () => {
    const busy = generateApiKey();
    const { store, reads } = countingStore(new Set([busy]));
    const verifier = new ApiKeyVerifier(store, 60_000);
    expect(await verifier.verify(busy)).not.toBeNull();

    // A flood of guessed keys, twice the cache; the busy key is used all along.
    for (let i = 0; i < MAX_CACHE_ENTRIES * 2; i += 1) {
      await verifier.verify(generateApiKey());
      if (i % 1_000 === 0) await verifier.verify(busy);
    }
    expect(await verifier.verify(busy)).not.toBeNull();
    expect(reads.filter((hash) => hash === hashApiKey(busy))).toHaveLength(1);
    expect(verifier.peek(busy)).not.toBeNull();
  });

  test('when a key was never verified, then peek says unknown without reading the store', () => {
    const { store, reads } = countingStore(new Set());
    const verifier = new ApiKeyVerifier(store, 60_000);
    expect(verifier.peek(generateApiKey())).toBeUndefined();
    expect(verifier.peek('not a key')).toBeNull();
    expect(reads).toHaveLength(0);
  });
});
