import { createHash } from 'node:crypto';

/** A stable fingerprint of the validated input: the same request body always hashes the same. */
export function fingerprint(value: unknown): string {
  const canonical = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(canonical);
    if (node && typeof node === 'object') {
      return Object.fromEntries(
        Object.keys(node)
          .sort()
          .map((key) => [key, canonical((node as Record<string, unknown>)[key])]),
      );
    }
    return node;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}
