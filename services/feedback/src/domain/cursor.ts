import { createHash } from 'node:crypto';
import { badRequest, isObjectId } from '@fi/shared';

/** Where a page ended, in the list's order (createdAt descending, then id descending). */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

const VERSION = 1;
const CHECK_BYTES = 8;
// version (1) + createdAt in ms (8) + ObjectId (12) + check (8)
const CURSOR_BYTES = 1 + 8 + 12 + CHECK_BYTES;
/** base64url of CURSOR_BYTES; anything longer is refused before decoding. */
export const MAX_CURSOR_LENGTH = Math.ceil((CURSOR_BYTES * 4) / 3);

const check = (body: Buffer) => createHash('sha256').update('fi-feedback-cursor').update(body).digest().subarray(0, CHECK_BYTES);

/**
 * Opaque to clients; the check digest makes any edited or truncated cursor fail with BAD_REQUEST
 * instead of silently paging from somewhere else. It is not a secret: a forged cursor could only
 * position a page within the caller's own results, which needs no protection.
 */
export function encodeCursor(position: CursorPosition): string {
  const body = Buffer.alloc(1 + 8 + 12);
  body.writeUInt8(VERSION, 0);
  body.writeBigInt64BE(BigInt(position.createdAt.getTime()), 1);
  Buffer.from(position.id, 'hex').copy(body, 9);
  return Buffer.concat([body, check(body)]).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const invalid = () => badRequest('after is not a valid cursor: pass the nextCursor of a previous page unchanged', { argument: 'after' });
  if (cursor.length !== MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== CURSOR_BYTES || bytes.toString('base64url') !== cursor) throw invalid();
  const body = bytes.subarray(0, CURSOR_BYTES - CHECK_BYTES);
  if (body.readUInt8(0) !== VERSION || !check(body).equals(bytes.subarray(CURSOR_BYTES - CHECK_BYTES))) throw invalid();
  const createdAt = new Date(Number(body.readBigInt64BE(1)));
  const id = body.subarray(9).toString('hex');
  if (Number.isNaN(createdAt.getTime()) || !isObjectId(id)) throw invalid();
  return { createdAt, id };
}
