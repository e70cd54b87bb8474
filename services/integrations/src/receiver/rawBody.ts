import type { IncomingMessage } from 'node:http';
import { HttpError } from '@fi/shared';

/** The request's bytes as they came (signatures cover them exactly), at most `maxBytes` (else 413). */
export function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new HttpError(413, `Request body exceeds ${maxBytes} bytes`);
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // The rest of an oversized body is drained unkept, so the sender still gets its 413.
      if (size <= maxBytes) chunks.push(chunk);
      else reject(tooLarge());
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size <= maxBytes) resolve(Buffer.concat(chunks));
    });
  });
}
