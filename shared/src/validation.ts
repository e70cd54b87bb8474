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

/** Length as a person counts it: in Unicode code points, so an emoji is one character, not two. */
export const codePointLength = (text: string): number => {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
};

/** A UTF-16 half of a character without its other half: no encoding can store it. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Control characters (NUL and the like) and the bidi overrides that make text display as other text. */
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
/** Multi-line text may hold tabs and line breaks, but no other control character. */
const MULTI_LINE_FORBIDDEN = /(?![\t\n\r])\p{Cc}/u;

/** Why `text` is not acceptable text (a name, a title: `singleLine`; a body: not), or null. */
export function textProblem(text: string, singleLine: boolean): string | null {
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds half of a character)';
  if (singleLine && SINGLE_LINE_FORBIDDEN.test(text))
    return 'must not contain control characters or bidirectional overrides';
  if (!singleLine && MULTI_LINE_FORBIDDEN.test(text))
    return 'must not contain control characters other than tabs and line breaks';
  return null;
}
