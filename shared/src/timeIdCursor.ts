import { createHash } from 'node:crypto';
import { badRequest } from './errors';
import { isObjectId } from './ids';

/** A position in an order by a time, then a record id (a list page's end, a changes feed's place). */
export interface TimeIdPosition {
  at: Date;
  id: string;
}

const VERSION = 1;
const CHECK_BYTES = 8;
// version (1) + time in ms (8) + ObjectId (12) + check (8)
const CURSOR_BYTES = 1 + 8 + 12 + CHECK_BYTES;
/** base64url of CURSOR_BYTES; anything longer is refused before decoding. */
export const TIME_ID_CURSOR_LENGTH = Math.ceil((CURSOR_BYTES * 4) / 3);

/**
 * Opaque cursors for one purpose: the check digest, salted with `purpose`, makes any edited or truncated
 * cursor (or one of another purpose, such as a list cursor given to a changes feed) fail with BAD_REQUEST
 * naming `argument` instead of silently reading from somewhere else. It is not a secret: a forged cursor
 * could only position a read within the caller's own records, which needs no protection.
 */
export function timeIdCursor(purpose: string, argument: string, hint: string) {
  const check = (body: Buffer) => createHash('sha256').update(purpose).update(body).digest().subarray(0, CHECK_BYTES);
  const invalid = () => badRequest(`${argument} is not a valid cursor: ${hint}`, { argument });
  return {
    encode(position: TimeIdPosition): string {
      const body = Buffer.alloc(1 + 8 + 12);
      body.writeUInt8(VERSION, 0);
      body.writeBigInt64BE(BigInt(position.at.getTime()), 1);
      Buffer.from(position.id, 'hex').copy(body, 9);
      return Buffer.concat([body, check(body)]).toString('base64url');
    },
    decode(cursor: string): TimeIdPosition {
      if (cursor.length !== TIME_ID_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
      const bytes = Buffer.from(cursor, 'base64url');
      if (bytes.length !== CURSOR_BYTES || bytes.toString('base64url') !== cursor) throw invalid();
      const body = bytes.subarray(0, CURSOR_BYTES - CHECK_BYTES);
      if (body.readUInt8(0) !== VERSION || !check(body).equals(bytes.subarray(CURSOR_BYTES - CHECK_BYTES)))
        throw invalid();
      const at = new Date(Number(body.readBigInt64BE(1)));
      const id = body.subarray(9).toString('hex');
      if (Number.isNaN(at.getTime()) || !isObjectId(id)) throw invalid();
      return { at, id };
    },
  };
}
