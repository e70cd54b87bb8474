import { isPlainObject } from '@fi/shared';
import { header, type ItemMaker, type PushConnector } from './connector';
import { checkTimestamp, hmac, refused, sameBytes } from './signatures';

/** The fields of NewFeedbackInput a generic webhook's body may carry, with `externalId` and `publishedDate`. */
const ITEM_FIELDS = ['title', 'content', 'author', 'email', 'sentiment', 'metadata', 'externalId', 'publishedDate'];

/**
 * A generic webhook, as Standard Webhooks specifies it: `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature` (space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`), keyed with the
 * base64 after `whsec_` of the secret we generated.
 */
export const webhookPush: PushConnector = {
  verify({ rawBody, headers, now }, { secret }) {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!secret?.startsWith('whsec_')) return refused('no secret');
    if (!id || !signatures) return refused('unsigned');
    const fresh = checkTimestamp(timestamp, now);
    if (!fresh.ok) return fresh;
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = hmac('sha256', key, Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]));
    const matches = signatures
      .split(' ')
      .some((entry) => entry.startsWith('v1,') && sameBytes(expected, Buffer.from(entry.slice(3), 'base64')));
    return matches ? { ok: true } : refused('signature does not match');
  },
  receive(payload, { headers }) {
    // The message id is the delivery's: a retry of the same message is stored once.
    return { events: [{ deliveryKey: header(headers, 'webhook-id') ?? '', type: 'feedback', payload }] };
  },
};

/** The body's item: its fields as NewFeedbackInput has them; `source` is `webhook`, a sender's own is kept in metadata. */
export const webhookItems: ItemMaker = {
  async toItem(event) {
    const body = event.payload;
    if (!isPlainObject(body)) return { ignored: 'the body is not a JSON object' };
    // Passed on as sent: the feedback service's rules check each field (a wrong one is the connection's last error).
    const fields = Object.fromEntries(
      ITEM_FIELDS.filter((field) => body[field] !== undefined).map((f) => [f, body[f]]),
    );
    const metadata = isPlainObject(body.metadata) ? body.metadata : {};
    return {
      item: {
        ...(fields as { title: string; content: string }),
        source: 'webhook',
        externalId: typeof body.externalId === 'string' && body.externalId ? body.externalId : event.deliveryKey,
        metadata: typeof body.source === 'string' ? { ...metadata, origin: body.source } : metadata,
      },
    };
  },
};
