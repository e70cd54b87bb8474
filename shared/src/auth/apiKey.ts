import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Fixed prefix of every key, so leaked keys are easy to spot (secret scanners, log redaction). */
export const API_KEY_PREFIX = 'fik_';

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys carry 256 random bits, so a fast hash is enough: there is nothing to brute-force offline. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function isWellFormedApiKey(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(API_KEY_PREFIX) && value.length <= 128;
}
