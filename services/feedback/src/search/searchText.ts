/**
 * The text the search index holds, and the trigrams of a term: what `search` means (a case-insensitive
 * literal substring of an item's title, content, author or email) expressed over positions, so that a
 * match is proven from the index alone (see docs/scale.md, "Search").
 */

/** Joins an item's fields: a term holding it is searched by regex, so no match spans two fields. */
export const FIELD_SEPARATOR = '\u0000';

/** Terms shorter than this (in characters) have no trigram and are searched by regex. */
export const GRAM_LENGTH = 3;

const folded = new Map<string, string>();

const single = (text: string, fallback: string) => ([...text].length === 1 ? text : fallback);

/**
 * One character as case-insensitive matching sees it: a member of its case-folding class (k, K and the
 * Kelvin sign K fold alike, as do σ, ς and Σ). A case-insensitive regex (MongoDB's, the embedded engine's
 * and JavaScript's with `iu`) folds characters one by one with Unicode simple case folding; the fold is
 * kept only when such a regex agrees (so dotless ı stays apart from i), and a character is never folded
 * into several (ß stays ß), so positions count the same characters as the item's text.
 */
export function foldChar(char: string): string {
  let result = folded.get(char);
  if (result === undefined) {
    const candidate = single(single(char.toUpperCase(), char).toLowerCase(), char);
    result = candidate === char || new RegExp(`^${escape(char)}$`, 'iu').test(candidate) ? candidate : char;
    folded.set(char, result);
  }
  return result;
}

const escape = (char: string) => char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Folded characters of a text, one entry per code point. */
export const foldedChars = (text: string): string[] => Array.from(text, foldChar);

/** An item's searchable text: its folded fields joined by the separator (an absent field is empty). */
export function itemText(fields: {
  title?: string | null;
  content?: string | null;
  author?: string | null;
  email?: string | null;
}): string[] {
  return foldedChars(
    [fields.title ?? '', fields.content ?? '', fields.author ?? '', fields.email ?? ''].join(FIELD_SEPARATOR),
  );
}

/** Each trigram of a text with the positions (in characters) where it starts. */
export function gramPositions(chars: string[]): Map<string, number[]> {
  const grams = new Map<string, number[]>();
  for (let at = 0; at + GRAM_LENGTH <= chars.length; at += 1) {
    const gram = chars[at] + chars[at + 1] + chars[at + 2];
    if (gram.includes(FIELD_SEPARATOR)) continue;
    const positions = grams.get(gram);
    if (positions) positions.push(at);
    else grams.set(gram, [at]);
  }
  return grams;
}

/**
 * The trigrams a term is matched by, with their offsets in the term, or null when the index cannot answer
 * it. Not all of them: the first, every third after it, and the last, so that every character of the term
 * is in one. An item holding each of these at position p + offset holds the term's every character there,
 * so it holds the term; and the trigrams in between, often the commonest ("por" and "ort" of "export"),
 * are neither read nor scanned.
 */
export function termGrams(term: string): Array<{ gram: string; offset: number }> | null {
  const chars = foldedChars(term);
  if (chars.length < GRAM_LENGTH || chars.includes(FIELD_SEPARATOR)) return null;
  const last = chars.length - GRAM_LENGTH;
  const offsets = new Set<number>([last]);
  for (let offset = 0; offset < last; offset += GRAM_LENGTH) offsets.add(offset);
  return [...offsets]
    .sort((a, b) => a - b)
    .map((offset) => ({ gram: chars[offset] + chars[offset + 1] + chars[offset + 2], offset }));
}
