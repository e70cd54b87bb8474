import { isPlainObject, isWellFormedApiKey, type MemberPrincipal, type Principal } from '@fi/shared';
import { Pool } from 'undici';

/** The identity service could not answer: the client may retry (SERVICE_UNAVAILABLE), it did nothing wrong. */
export class IdentityUnavailableError extends Error {
  override readonly name = 'IdentityUnavailableError';
}

interface CacheEntry {
  principal: Principal | null;
  expiresAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/** Who a session cookie stands for, and whether the request's CSRF token is the session's. */
export interface SessionCheck {
  principal: MemberPrincipal | null;
  csrfValid: boolean;
}

export interface IdentityClientOptions {
  /** Base URL of the identity service, e.g. http://identity:4004. */
  url: string;
  timeoutMs: number;
  /** How long an answer is reused: also the longest delay before a revoked key stops working. */
  cacheTtlMs: number;
}

/**
 * Asks the identity service who an API key stands for, with a short in-process cache (least recently
 * used entries leave first) and one lookup in flight per key. The cache is keyed by the key itself,
 * which this process holds anyway while it serves the key's requests.
 */
export class IdentityClient {
  private readonly pool: Pool;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<Principal | null>>();

  constructor(private readonly options: IdentityClientOptions) {
    this.pool = new Pool(new URL(options.url).origin, {
      connections: 32,
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** The key's principal when it is well formed, known and not revoked; otherwise null. */
  async verifyKey(key: unknown): Promise<Principal | null> {
    if (!isWellFormedApiKey(key)) return null;
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached.principal;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookUp(key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * What the cache knows of `key` without asking the identity service: its principal, null for a key
   * known to be invalid (or malformed), undefined when only the service could tell. The invalid-key guard
   * serves a blocked address with this alone.
   */
  peek(key: unknown): Principal | null | undefined {
    if (!isWellFormedApiKey(key)) return null;
    const cached = this.cache.get(key);
    return cached && cached.expiresAt > Date.now() ? cached.principal : undefined;
  }

  /**
   * The signed-in member behind the request's session cookie (`headers`: the page's cookie and x-csrf-token),
   * asked every time: a session ended by sign-out or removal stops at once. Never cached.
   */
  async verifySession(headers: Record<string, string>): Promise<SessionCheck> {
    const body = await this.post('/internal/verify-session', headers, undefined);
    if (!isPlainObject(body) || !('principal' in body) || typeof body.csrfValid !== 'boolean') {
      throw new IdentityUnavailableError('the identity service answered in an unknown form');
    }
    return { principal: (body.principal ?? null) as MemberPrincipal | null, csrfValid: body.csrfValid };
  }

  /**
   * Whether what the key `keyId` of `orgId` made (an export's download link) may still be used: the key is
   * live and its creator still a member. Asked every time, never cached: a revoked key's links stop at once.
   */
  async keyIsLive(keyId: string, orgId: string): Promise<boolean> {
    const body = await this.post('/internal/key-live', {}, { keyId, orgId });
    if (!isPlainObject(body) || typeof body.live !== 'boolean')
      throw new IdentityUnavailableError('the identity service answered in an unknown form');
    return body.live;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** POSTs to an internal route of the identity service; its JSON answer, or IdentityUnavailableError. */
  private async post(path: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
    try {
      const response = await this.pool.request({
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`identity service answered ${response.statusCode}`);
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new IdentityUnavailableError('the identity service did not answer', { cause: error });
    }
  }

  private async lookUp(key: string): Promise<Principal | null> {
    const body = await this.post('/internal/verify-key', {}, { key });
    if (!isPlainObject(body) || !('principal' in body))
      throw new IdentityUnavailableError('the identity service answered in an unknown form');
    const principal = (body.principal ?? null) as Principal | null;
    if (this.options.cacheTtlMs > 0) {
      this.cache.delete(key);
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, { principal, expiresAt: Date.now() + this.options.cacheTtlMs });
    }
    return principal;
  }
}
