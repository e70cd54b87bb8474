import { isPlainObject } from '@fi/shared';
import { header, objectAt, textAt, type ItemMaker, type PushConnector } from './connector';
import { htmlToText, titleOf } from './htmlText';
import { checkTimestamp, hmac, refused, sameBytes } from './signatures';

/** The topics that become items; every other topic (ping, admin replies, closes...) is acknowledged and ignored. */
export const INTERCOM_TOPICS = ['conversation.user.created', 'conversation.user.replied'] as const;

/** Who may be an item's author: the customer (a user or a lead), never a teammate or a bot. */
const CUSTOMERS = new Set(['user', 'lead', 'contact']);

function parsed(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Intercom's webhooks: `X-Hub-Signature: sha1=<hex HMAC-SHA1 of the raw body>` keyed with the app's client
 * secret. Intercom sends no timestamp header; the notification's own `created_at` (inside the signed body)
 * must be within 5 minutes, so a captured notification cannot be replayed later.
 */
export const intercomPush: PushConnector = {
  verify({ rawBody, headers, now }, { secret }) {
    const given = header(headers, 'x-hub-signature');
    if (!secret) return refused('no secret');
    if (!given?.startsWith('sha1=')) return refused('unsigned');
    if (!sameBytes(hmac('sha1', secret, rawBody), Buffer.from(given.slice(5), 'hex')))
      return refused('signature does not match');
    const body = parsed(rawBody);
    // Not JSON: signed by the app, answered 400 by the receiver.
    if (body === undefined) return { ok: true };
    return checkTimestamp(textAt(body, 'created_at'), now);
  },
  receive(payload) {
    const topic = textAt(payload, 'topic');
    if (!topic || !(INTERCOM_TOPICS as readonly string[]).includes(topic)) return { events: [] };
    const conversation = objectAt(objectAt(payload, 'data'), 'item');
    const deliveryKey =
      textAt(payload, 'id') ?? `${topic}:${textAt(conversation, 'id') ?? ''}:${textAt(payload, 'created_at') ?? ''}`;
    return { events: [{ deliveryKey, type: topic, payload }] };
  },
};

const author = (part: Record<string, unknown>) => {
  const who = objectAt(part, 'author');
  return { author: textAt(who, 'name'), email: textAt(who, 'email'), type: textAt(who, 'type') };
};

const secondsToDate = (seconds: string | undefined) => (seconds ? new Date(Number(seconds) * 1000) : undefined);

/**
 * A conversation's opening message becomes an item (its id the externalId); each later customer reply
 * becomes an item of its own (externalId `<conversation>:<part>`, title "Re: <conversation title>"), linked
 * to the conversation in metadata, so what a customer adds later is read, counted and themed like the rest.
 */
export const intercomItems: ItemMaker = {
  async toItem(event) {
    const notification = event.payload;
    const conversation = objectAt(objectAt(notification, 'data'), 'item');
    const conversationId = textAt(conversation, 'id');
    if (!conversationId) return { ignored: 'the notification names no conversation' };
    const source = objectAt(conversation, 'source');
    const subject = htmlToText(textAt(source, 'subject') ?? '');
    const opening = htmlToText(textAt(source, 'body') ?? '');
    const appId = textAt(notification, 'app_id');
    const url = appId
      ? `https://app.intercom.com/a/apps/${appId}/inbox/inbox/conversation/${conversationId}`
      : textAt(source, 'url');
    const metadata = { conversationId, ...(url ? { url } : {}), ...(appId ? { appId } : {}) };

    if (event.type === 'conversation.user.created') {
      if (!opening) return { ignored: 'the conversation has no text' };
      const { author: name, email } = author(source);
      return {
        item: {
          source: 'intercom',
          title: subject || titleOf(opening),
          content: opening,
          ...(name ? { author: name } : {}),
          ...(email ? { email } : {}),
          externalId: conversationId,
          publishedDate: secondsToDate(textAt(conversation, 'created_at')),
          metadata,
        },
      };
    }
    const parts = objectAt(conversation, 'conversation_parts').conversation_parts;
    const reply = (Array.isArray(parts) ? parts : [])
      .filter(isPlainObject)
      .filter((part) => CUSTOMERS.has(author(part).type ?? ''))
      .at(-1);
    const partId = reply ? textAt(reply, 'id') : undefined;
    const text = reply ? htmlToText(textAt(reply, 'body') ?? '') : '';
    if (!reply || !partId || !text) return { ignored: 'the notification holds no customer reply with text' };
    const { author: name, email } = author(reply);
    return {
      item: {
        source: 'intercom',
        title: `Re: ${subject || titleOf(opening) || titleOf(text)}`,
        content: text,
        ...(name ? { author: name } : {}),
        ...(email ? { email } : {}),
        externalId: `${conversationId}:${partId}`,
        publishedDate: secondsToDate(textAt(reply, 'created_at')),
        metadata: { ...metadata, partId, inReplyTo: conversationId },
      },
    };
  },
};
