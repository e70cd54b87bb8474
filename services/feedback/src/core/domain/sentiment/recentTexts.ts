/**
 * Remembers what `read` made of the most recent texts, so a text read again is read once: reading a text
 * with the language model costs a fraction of a millisecond to a millisecond, and the same texts come
 * back (an import's or a seed's repeated templates; the newest items of a range asked again and again).
 * `keyOf` names the text, or gives null for one not to remember (a long one); the oldest entry goes first.
 */
export function rememberRecent<I, T>(
  read: (input: I) => T,
  keyOf: (input: I) => string | null,
  entries: number,
): (input: I) => T {
  const recent = new Map<string, T>();
  return (input) => {
    const key = keyOf(input);
    if (key === null) return read(input);
    const remembered = recent.get(key);
    if (remembered !== undefined) return remembered;
    const value = read(input);
    if (recent.size >= entries) recent.delete(recent.keys().next().value as string);
    recent.set(key, value);
    return value;
  };
}
