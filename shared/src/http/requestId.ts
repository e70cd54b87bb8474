import { randomUUID } from 'node:crypto';

/**
 * A caller's request id is kept only in a safe form: 1 to 64 letters, digits, `.`, `:` and `-` (UUIDs,
 * ULIDs, hex trace ids, `req-42`). No underscore, so an API key (`fik_...`) pasted into the header is
 * never taken as the id and written to every log line; anything else gets a fresh id.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9.:-]{1,64}$/;

export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}
