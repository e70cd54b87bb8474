import { badRequest } from './errors';

// Deliberately simple: one @, no spaces, a dot in the domain. Full RFC 5322 accepts things no mailbox has.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The longest address SMTP can carry (RFC 5321). */
export const MAX_EMAIL_LENGTH = 254;

export function isEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value);
}

export function requireOneOf<T extends string>(
  name: string,
  value: string | null | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === null || value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`, {
      argument: name,
      allowed,
    });
  }
  return value as T;
}

/**
 * Escapes regular-expression metacharacters so user search text is matched literally. NUL becomes the
 * escape `\x00`: MongoDB refuses a pattern with an embedded NUL byte, but matches the escape.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');
}

/** A case-insensitive literal substring filter, or undefined for an empty search. */
export function substringPattern(search: string | null | undefined): RegExp | undefined {
  if (search === null || search === undefined || search.trim() === '') return undefined;
  return new RegExp(escapeRegExp(search.trim()), 'i');
}
