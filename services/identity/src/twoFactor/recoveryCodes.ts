import { createHash, randomInt } from 'node:crypto';

const COUNT = 10;
/** Without look-alikes (0/O, 1/I/L), so a code read off paper is typed right. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/**
 * Ten codes of ten characters (about 49 random bits each) to sign in once each when the phone is lost;
 * shown once, stored only as their SHA-256 (random codes this long need no slow hash to resist guessing
 * a leaked list: nobody can try 2^49 codes against the throttle, and a hash alone gives none back).
 */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: COUNT }, () => {
    const text = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** Case and dashes do not matter when a code is typed. */
export const hashRecoveryCode = (code: string): string =>
  createHash('sha256')
    .update(code.toUpperCase().replace(/[^A-Z0-9]/g, ''))
    .digest('hex');

export const looksLikeRecoveryCode = (code: string): boolean => /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(code.trim());
