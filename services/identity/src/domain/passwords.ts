import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { badRequest } from '@fi/shared';

/**
 * scrypt (memory-hard, in Node itself: nothing native to download) at N=2^15, r=8: 32 MiB and tens of
 * milliseconds per guess, OWASP's recommended minimum. The parameters are stored with each hash, so
 * they can be raised later without invalidating existing passwords.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** BAD_REQUEST naming the rule when a new password is too short or too long. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    throw badRequest(`The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (length > MAX_PASSWORD_LENGTH)
    throw badRequest(`The password must have at most ${MAX_PASSWORD_LENGTH} characters`);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return [
    'scrypt',
    PARAMETERS.N,
    PARAMETERS.r,
    PARAMETERS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key || [...password].length > MAX_PASSWORD_LENGTH) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash no password matches, computed once: signing in with an unknown email costs the same scrypt
 * work as with a known one, so response times do not tell which emails have accounts.
 */
let decoy: Promise<string> | undefined;
export const decoyPasswordHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(32).toString('base64url')));
