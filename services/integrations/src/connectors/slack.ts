import { Unavailable } from '../ports';
import { header, objectAt, textAt, type ItemMaker, type PlatformApis, type PushConnector } from './connector';
import { titleOf } from './htmlText';
import { checkTimestamp, hmac, refused, sameBytes } from './signatures';

/**
 * Subtypes of a `message` event that are not a person writing: edits, deletions, joins and leaves, topics,
 * bots... Only a plain message (no subtype), a reply sent to the channel too, and a message with files are
 * what a customer said.
 */
const SAID = new Set([undefined, 'thread_broadcast', 'file_share']);

/**
 * Slack's Events API: `X-Slack-Signature: v0=<hex HMAC-SHA256 of v0:<timestamp>:<raw body>>` with the app's
 * signing secret, `X-Slack-Request-Timestamp` within 5 minutes. A retry (`X-Slack-Retry-Num`) carries the
 * same `event_id`, which the inbox stores once.
 */
export const slackPush: PushConnector = {
  verify({ rawBody, headers, now }, { secret }) {
    const timestamp = header(headers, 'x-slack-request-timestamp');
    const given = header(headers, 'x-slack-signature');
    if (!secret) return refused('no secret');
    if (!given?.startsWith('v0=')) return refused('unsigned');
    const fresh = checkTimestamp(timestamp, now);
    if (!fresh.ok) return fresh;
    const expected = hmac('sha256', secret, Buffer.concat([Buffer.from(`v0:${timestamp}:`), rawBody]));
    return sameBytes(expected, Buffer.from(given.slice(3), 'hex')) ? { ok: true } : refused('signature does not match');
  },
  receive(payload) {
    const type = textAt(payload, 'type');
    // Slack checks the URL once, when it is entered in the app's settings: answered with the challenge.
    if (type === 'url_verification') return { events: [], answer: { challenge: textAt(payload, 'challenge') ?? '' } };
    const event = objectAt(payload, 'event');
    const eventId = textAt(payload, 'event_id');
    if (type !== 'event_callback' || textAt(event, 'type') !== 'message' || !eventId) return { events: [] };
    if (!SAID.has(textAt(event, 'subtype')) || textAt(event, 'bot_id')) return { events: [] };
    return { events: [{ deliveryKey: eventId, type: 'message', payload }] };
  },
};

/** Slack's mrkdwn as plain text: links and mentions as their labels, its three escaped characters decoded. */
export function slackText(text: string): string {
  return text
    .replace(/<([^>|]+)\|([^>]+)>/g, '$2')
    .replace(/<([@#!][^>]*)>/g, '$1')
    .replace(/<([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

interface SlackUser {
  name?: string;
  email?: string;
}

/**
 * A member's name and email from `users.info` (the bot token needs `users:read` and `users:read.email`).
 * Slack's own refusal (`ok: false`, e.g. a missing scope) leaves the author to its user id; no answer, a
 * 5xx or a 429 is Unavailable, so the event is retried later.
 */
async function userInfo(apis: PlatformApis, token: string, userId: string): Promise<SlackUser> {
  let response: Response;
  try {
    response = await fetch(`${apis.slackApiUrl.replace(/\/$/, '')}/users.info?user=${encodeURIComponent(userId)}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(apis.timeoutMs),
    });
  } catch (error) {
    throw new Unavailable(`Slack users.info did not answer: ${(error as Error).message}`);
  }
  if (response.status === 429 || response.status >= 500)
    throw new Unavailable(`Slack users.info answered ${response.status}`);
  const body = (await response.json().catch(() => ({}))) as { ok?: boolean; user?: Record<string, unknown> };
  if (!body.ok || !body.user) return {};
  const profile = objectAt(body.user, 'profile');
  return {
    name: textAt(profile, 'real_name') ?? textAt(body.user, 'real_name') ?? textAt(profile, 'display_name'),
    email: textAt(profile, 'email'),
  };
}

/** A message in a channel the app is in becomes an item: its channel and timestamp are its id on Slack. */
export const slackItems: ItemMaker = {
  async toItem(event, { credentials, apis }) {
    const message = objectAt(event.payload, 'event');
    const channel = textAt(message, 'channel');
    const ts = textAt(message, 'ts');
    const userId = textAt(message, 'user');
    const text = slackText(textAt(message, 'text') ?? '');
    if (!channel || !ts) return { ignored: 'the message names no channel or timestamp' };
    if (!text) return { ignored: 'the message has no text' };
    const user = credentials.token && userId ? await userInfo(apis, credentials.token, userId) : {};
    const author = user.name ?? userId;
    return {
      item: {
        source: 'slack',
        title: titleOf(text),
        content: text,
        ...(author ? { author } : {}),
        ...(user.email ? { email: user.email } : {}),
        externalId: `${channel}:${ts}`,
        publishedDate: new Date(Math.round(Number(ts) * 1000)),
        metadata: {
          channel,
          ts,
          ...(userId ? { userId } : {}),
          ...(textAt(event.payload, 'team_id') ? { team: textAt(event.payload, 'team_id') } : {}),
          url: `https://slack.com/archives/${channel}/p${ts.replace('.', '')}`,
        },
      },
    };
  },
};
