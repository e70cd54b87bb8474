import { forbidden, unauthenticated } from '../errors';
import type { Tier } from './apiKey';
import type { ApiKeyRecord } from './apiKeyStore';
import type { ApiKeyVerifier } from './apiKeyVerifier';

/** Who is calling: resolved from a verified API key. */
export interface Caller {
  keyId: string;
  orgId: string;
  tier: Tier;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
}

/**
 * The gateway forwards the operation's verified keys to subgraphs in this header, so entity fetches
 * (which carry no `apiKey` argument) are still scoped to the caller's organizations.
 */
export const FORWARDED_KEYS_HEADER = 'x-fi-api-keys';

const toCaller = (record: ApiKeyRecord): Caller => ({
  keyId: record.id,
  orgId: record.orgId,
  tier: record.tier,
  readOnly: record.readOnly,
  rateLimitPerMinute: record.rateLimitPerMinute,
});

export class Authenticator {
  constructor(private readonly verifier: ApiKeyVerifier) {}

  /** Throws UNAUTHENTICATED ("Invalid API key") for a missing, malformed, unknown or revoked key. */
  async require(apiKey: unknown): Promise<Caller> {
    const record = await this.verifier.verify(apiKey);
    if (!record) throw unauthenticated();
    return toCaller(record);
  }

  /**
   * The callers of `keys` when the verifier's cache vouches for every one of them; null when any key
   * would need the store. Never reads the store.
   */
  knownCallers(keys: readonly string[]): Caller[] | null {
    const callers: Caller[] = [];
    for (const key of keys) {
      const record = this.verifier.peek(key);
      if (!record) return null;
      callers.push(toCaller(record));
    }
    return callers;
  }

  async requireWriter(apiKey: unknown, refusal: string): Promise<Caller> {
    const caller = await this.require(apiKey);
    if (caller.readOnly) throw forbidden(refusal);
    return caller;
  }

  /** Organizations the forwarded keys belong to; UNAUTHENTICATED when none is valid. */
  async orgsFromHeader(headerValue: string | undefined): Promise<Set<string>> {
    const keys = (headerValue ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    const callers = await Promise.all(keys.map((key) => this.verifier.verify(key)));
    const orgs = new Set(callers.flatMap((record) => (record ? [record.orgId] : [])));
    if (orgs.size === 0) throw unauthenticated();
    return orgs;
  }
}
