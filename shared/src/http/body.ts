import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../errors';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra `extensions` of the error body, e.g. the limit a request broke. */
    readonly extensions: Record<string, unknown> = {},
    /** The error's code in the body: the request was wrong unless said otherwise. */
    readonly code: ErrorCode = ErrorCode.BAD_REQUEST,
  ) {
    super(message);
  }
}

/**
 * The deepest nesting of objects and arrays a request body may have. GraphQL variables, metadata (at most
 * 5 levels of its own) and representations need a handful; everything that walks a value (JSON
 * serialization, GraphQL input coercion, the metadata rules) recurses, and thousands of levels overflow
 * the stack there.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * Whether `text` (JSON) nests deeper than `max`, found by one pass over the characters, without
 * recursion, before anything parses or walks it.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * The request's JSON body, read with plain stream events: this runs on every request, and an async
 * iterator over the request costs more than the whole read of a typical body.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.reject(new HttpError(413, `Request body exceeds ${maxBytes} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // The rest of an oversized body is drained unkept, so the client still gets its 413 answer.
      reject(new HttpError(413, `Request body exceeds ${maxBytes} bytes`));
    });
    req.on('error', reject);
    req.on('end', () => {
      // Already refused as too large: what was kept is not the body, and parsing it would be wasted work.
      if (size > maxBytes) return;
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
      if (jsonNestsDeeperThan(text, MAX_BODY_DEPTH)) {
        reject(
          new HttpError(
            400,
            `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
            {},
            { limit: 'depth', max: MAX_BODY_DEPTH },
          ),
        );
        return;
      }
      try {
        resolve(JSON.parse(text) as unknown);
      } catch {
        reject(new HttpError(400, 'Malformed JSON body'));
      }
    });
  });
}
