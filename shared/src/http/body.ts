import type { IncomingMessage } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
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
      try {
        resolve(JSON.parse(text) as unknown);
      } catch {
        reject(new HttpError(400, 'Malformed JSON body'));
      }
    });
  });
}
