import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Tier } from './apiKey';

/**
 * The gateway tells subgraphs who is calling in one header: a short-lived identity signed with HMAC-SHA256.
 * Subgraphs trust this signature and nothing else; raw API keys never travel past the gateway.
 */
export const IDENTITY_HEADER = 'x-fi-identity';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** One verified caller of an operation: an API key, or a signed-in member. */
export interface Principal {
  /** What the operation's `apiKey` arguments carry past the gateway instead of the secret: the key's id. */
  ref: string;
  kind: 'key' | 'member';
  orgId: string;
  role: Role;
  tier: Tier;
  readOnly: boolean;
  /** Requests per minute granted to this key on request; null means the tier's limit. */
  rateLimitPerMinute: number | null;
}

/** A signed-in member, as the gateway signed them for a service's admin schema. */
export type MemberPrincipal = Principal & { kind: 'member' };

export interface SigningKey {
  id: string;
  secret: Buffer;
}

/** The configured keys: the first signs, every one verifies, so a new key is rolled out before it signs. */
export type SigningKeyring = readonly SigningKey[];

interface Payload {
  exp: number;
  p: Principal[];
}

const VERSION = 'v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
export const MIN_SIGNING_SECRET_LENGTH = 32;

/** `kid:secret[,kid:secret...]`, as IDENTITY_SIGNING_KEYS holds it. */
export function parseSigningKeys(raw: string): SigningKeyring {
  const keys = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const separator = entry.indexOf(':');
      const id = separator > 0 ? entry.slice(0, separator) : '';
      const secret = separator > 0 ? entry.slice(separator + 1) : '';
      if (!KEY_ID.test(id)) throw new Error('each entry is KEY_ID:SECRET, the id 1-32 letters, digits, _ or -');
      if (secret.length < MIN_SIGNING_SECRET_LENGTH)
        throw new Error(`the secret of key "${id}" is shorter than ${MIN_SIGNING_SECRET_LENGTH} characters`);
      return { id, secret: Buffer.from(secret, 'utf8') };
    });
  if (keys.length === 0) throw new Error('expected at least one KEY_ID:SECRET');
  if (new Set(keys.map((key) => key.id)).size !== keys.length) throw new Error('key ids must be distinct');
  return keys;
}

const mac = (secret: Buffer, text: string) => createHmac('sha256', secret).update(text).digest();

export function signIdentity(
  keyring: SigningKeyring,
  principals: Principal[],
  ttlMs: number,
  now = Date.now(),
): string {
  const signer = keyring[0];
  const payload = Buffer.from(JSON.stringify({ exp: now + ttlMs, p: principals } satisfies Payload)).toString(
    'base64url',
  );
  const signed = `${VERSION}.${signer.id}.${payload}`;
  return `${signed}.${mac(signer.secret, signed).toString('base64url')}`;
}

export type IdentityRefusal = 'missing' | 'malformed' | 'unknown-key' | 'bad-signature' | 'expired';

export type VerifiedIdentity = { ok: true; principals: Principal[] } | { ok: false; reason: IdentityRefusal };

/** Checks the signature (in constant time) with the key the token names, then the expiry. */
export function verifyIdentity(keyring: SigningKeyring, token: string | undefined, now = Date.now()): VerifiedIdentity {
  if (!token) return { ok: false, reason: 'missing' };
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [version, keyId, payload, signature] = parts;
  const key = keyring.find((candidate) => candidate.id === keyId);
  if (!key) return { ok: false, reason: 'unknown-key' };
  const expected = mac(key.secret, `${version}.${keyId}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad-signature' };
  let decoded: Payload;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Payload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof decoded.exp !== 'number' || !Array.isArray(decoded.p)) return { ok: false, reason: 'malformed' };
  if (decoded.exp <= now) return { ok: false, reason: 'expired' };
  return { ok: true, principals: decoded.p };
}
