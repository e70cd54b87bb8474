import { badRequest } from './errors';
import { isPlainObject } from './scalars';

/** Limits on free-form JSON objects, so one record cannot bloat or break the store. */
export const METADATA_LIMITS = { maxBytes: 16_384, maxDepth: 5, maxKeys: 200 } as const;

/**
 * Keys that name JavaScript's prototype machinery: stored and sent back, they can rewrite a consumer's
 * object prototype when merged into an object (`Object.assign`, a deep merge).
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a free-form JSON object before it is stored. Keys that start with `$` or hold `.` or NUL are
 * refused because MongoDB reads them as operators or paths; prototype keys because clients' code may
 * merge metadata into its own objects.
 */
export function validateMetadata(value: unknown, name = 'metadata'): Record<string, unknown> {
  if (!isPlainObject(value)) throw badRequest(`${name} must be a JSON object`, { argument: name });
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > METADATA_LIMITS.maxBytes) {
    throw badRequest(`${name} must be at most ${METADATA_LIMITS.maxBytes} bytes as JSON (got ${bytes})`, {
      argument: name,
      max: METADATA_LIMITS.maxBytes,
    });
  }
  let keys = 0;
  const walk = (node: unknown, depth: number): void => {
    if (depth > METADATA_LIMITS.maxDepth) {
      throw badRequest(`${name} must be nested at most ${METADATA_LIMITS.maxDepth} levels deep`, {
        argument: name,
        max: METADATA_LIMITS.maxDepth,
      });
    }
    if (Array.isArray(node)) node.forEach((item) => walk(item, depth + 1));
    else if (isPlainObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        keys += 1;
        if (keys > METADATA_LIMITS.maxKeys) {
          throw badRequest(`${name} must have at most ${METADATA_LIMITS.maxKeys} keys`, {
            argument: name,
            max: METADATA_LIMITS.maxKeys,
          });
        }
        if (key.startsWith('$') || key.includes('.') || key.includes('\0')) {
          throw badRequest(`${name} keys must not start with "$" or contain "." or NUL (got ${JSON.stringify(key)})`, {
            argument: name,
          });
        }
        if (PROTOTYPE_KEYS.has(key)) {
          throw badRequest(`${name} keys must not be ${[...PROTOTYPE_KEYS].join(', ')} (got ${JSON.stringify(key)})`, {
            argument: name,
          });
        }
        walk(child, depth + 1);
      }
    }
  };
  walk(value, 1);
  return value;
}
