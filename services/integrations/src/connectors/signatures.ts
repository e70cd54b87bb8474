import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Verification } from './connector';

/** How old a signed timestamp may be (either way, for clocks apart): Standard Webhooks', Slack's and ours. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

export const hmac = (algorithm: 'sha1' | 'sha256', key: string | Buffer, data: Buffer | string) =>
  createHmac(algorithm, key).update(data).digest();

/** Constant-time comparison of a received signature with the expected bytes. */
export function sameBytes(expected: Buffer, given: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A Unix timestamp in seconds within the tolerance of `now`, or why not. */
export function checkTimestamp(seconds: string | undefined, now: Date): Verification {
  if (!seconds || !/^\d{1,12}$/.test(seconds)) return { ok: false, reason: 'missing or malformed timestamp' };
  if (Math.abs(now.getTime() - Number(seconds) * 1000) > SIGNATURE_TOLERANCE_MS)
    return { ok: false, reason: 'timestamp outside the 5-minute window' };
  return { ok: true };
}

export const refused = (reason: string): Verification => ({ ok: false, reason });
