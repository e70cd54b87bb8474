import { isPlainObject } from '@fi/shared';
import { header, textAt, type ItemMaker, type PushConnector } from './connector';
import { hmac, refused, sameBytes, SIGNATURE_TOLERANCE_MS } from './signatures';

/**
 * The JSON body a Zendesk trigger's webhook sends (docs/integrations.md gives it to paste): Zendesk fills
 * the placeholders, escaping them for JSON.
 */
export const ZENDESK_TRIGGER_BODY = {
  ticket_id: '{{ticket.id}}',
  subject: '{{ticket.title}}',
  description: '{{ticket.description}}',
  requester_name: '{{ticket.requester.name}}',
  requester_email: '{{ticket.requester.email}}',
  created_at: '{{ticket.created_at_with_timestamp}}',
  url: '{{ticket.link}}',
};

/** What the pull of tickets (Incremental Ticket Export) stores: its payload is the item's fields already. */
export const PULLED_TICKET = 'ticket.pulled';

/**
 * Zendesk's webhook signature: `X-Zendesk-Webhook-Signature` = base64 HMAC-SHA256 of
 * `X-Zendesk-Webhook-Signature-Timestamp` + the raw body, with the webhook's signing secret; the timestamp
 * (ISO 8601) within 5 minutes.
 */
export const zendeskPush: PushConnector = {
  verify({ rawBody, headers, now }, { secret }) {
    const timestamp = header(headers, 'x-zendesk-webhook-signature-timestamp');
    const given = header(headers, 'x-zendesk-webhook-signature');
    if (!secret) return refused('no secret');
    if (!timestamp || !given) return refused('unsigned');
    const at = Date.parse(timestamp);
    if (Number.isNaN(at) || Math.abs(now.getTime() - at) > SIGNATURE_TOLERANCE_MS)
      return refused('timestamp outside the 5-minute window');
    const expected = hmac('sha256', secret, Buffer.concat([Buffer.from(timestamp), rawBody]));
    return sameBytes(expected, Buffer.from(given, 'base64')) ? { ok: true } : refused('signature does not match');
  },
  receive(payload) {
    const ticketId = textAt(payload, 'ticket_id');
    // A trigger sends what it was told to: without a ticket id it is not the documented body.
    if (!ticketId) return { events: [] };
    // One event per ticket: a trigger that fires again for the ticket (an update) adds nothing.
    return { events: [{ deliveryKey: ticketId, type: 'ticket.created', payload }] };
  },
};

/** `{{ticket.link}}` is the agent's link without a scheme (subdomain.zendesk.com/agent/tickets/7). */
const linkOf = (link: string | undefined) => (link && !/^https?:\/\//.test(link) ? `https://${link}` : link);

/** A ticket becomes an item: its subject the title, its description the content, its requester the author. */
export const zendeskItems: ItemMaker = {
  async toItem(event) {
    const body = event.payload;
    if (event.type === PULLED_TICKET && isPlainObject(body)) {
      const pulled = body as unknown as { externalId: string; title: string; content: string };
      return { item: { ...pulled, source: 'zendesk' } };
    }
    const ticketId = textAt(body, 'ticket_id');
    if (!ticketId) return { ignored: 'the body names no ticket_id' };
    const url = linkOf(textAt(body, 'url'));
    return {
      item: {
        source: 'zendesk',
        title: textAt(body, 'subject') ?? `Ticket ${ticketId}`,
        content: textAt(body, 'description') ?? '',
        ...(textAt(body, 'requester_name') ? { author: textAt(body, 'requester_name') } : {}),
        ...(textAt(body, 'requester_email') ? { email: textAt(body, 'requester_email') } : {}),
        externalId: ticketId,
        ...(textAt(body, 'created_at') ? { publishedDate: textAt(body, 'created_at') } : {}),
        metadata: { ticketId, ...(url ? { url } : {}) },
      },
    };
  },
};
