import { createHmac, randomUUID } from 'node:crypto';
import { addConnection, itemsOf, listIntegrations, post } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { startSlackServer } from './helpers/slackServer';
import { startStack, type Stack } from './helpers/stack';

const seconds = (at = Date.now()) => Math.floor(at / 1000);
const hex = (algorithm: 'sha1' | 'sha256', key: string, data: string) =>
  createHmac(algorithm, key).update(data).digest('hex');

let stack: Stack;
let slack: Awaited<ReturnType<typeof startSlackServer>>;
const BOT_TOKEN = `xoxb-${randomUUID()}`;

beforeAll(async () => {
  slack = await startSlackServer(BOT_TOKEN, [{ id: 'U1', realName: 'Ada Lovelace', email: 'ada@example.com' }]);
  stack = await startStack({ SLACK_API_URL: slack.apiUrl });
});
afterAll(async () => {
  await stack.close();
  await slack.close();
});

const inboxCount = async (connectionId: string) =>
  (await stack.connect('integrations')).collection('inbox_events').countDocuments({ connectionId });

describe('Intercom', () => {
  const CLIENT_SECRET = `cs-${randomUUID()}`;
  const signed = (body: string, secret = CLIENT_SECRET) => ({ 'x-hub-signature': `sha1=${hex('sha1', secret, body)}` });
  const author = { type: 'user', id: 'u-1', name: 'Grace Hopper', email: 'grace@example.com' };
  const conversation = (parts: unknown[] = []) => ({
    type: 'conversation',
    id: '1001',
    created_at: seconds() - 60,
    source: {
      type: 'conversation',
      subject: '',
      body: '<p>The <b>export</b> fails &amp; times out.</p><p>Please help</p>',
      author,
    },
    conversation_parts: { type: 'conversation_part.list', conversation_parts: parts },
  });
  const notification = (id: string, topic: string, item: unknown, createdAt = seconds()) =>
    JSON.stringify({
      type: 'notification_event',
      app_id: 'abc123',
      id,
      topic,
      created_at: createdAt,
      data: { type: 'notification_event_data', item },
    });

  test('when a customer opens a conversation and replies, then each becomes an item with text, author and a link back; a redelivery adds nothing', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'intercom', secret: CLIENT_SECRET });
    expect(hook.secret).toBeNull();
    const created = notification('notif_1', 'conversation.user.created', conversation());
    expect((await post(hook.hookUrl!, created, signed(created))).status).toBe(200);
    const replied = notification(
      'notif_2',
      'conversation.user.replied',
      conversation([
        {
          type: 'conversation_part',
          id: 'p1',
          part_type: 'comment',
          body: '<p>Any news?</p>',
          author: { type: 'admin', name: 'Support' },
        },
        {
          type: 'conversation_part',
          id: 'p2',
          part_type: 'comment',
          body: '<p>Still&nbsp;broken</p>',
          created_at: seconds(),
          author,
        },
      ]),
    );
    expect((await post(hook.hookUrl!, replied, signed(replied))).status).toBe(200);
    expect(await post(hook.hookUrl!, created, signed(created))).toMatchObject({ status: 200, body: { stored: 0 } });
    await eventually(async () => (await itemsOf(stack, key, 'intercom')).total === 2, 20_000, 'two items');
    const items = (await itemsOf(stack, key, 'intercom')).items.sort((a, b) =>
      a.externalId!.localeCompare(b.externalId!),
    );
    expect(items[0]).toMatchObject({
      title: 'The export fails & times out.',
      content: 'The export fails & times out.\nPlease help',
      author: 'Grace Hopper',
      email: 'grace@example.com',
      externalId: '1001',
      metadata: { conversationId: '1001', url: 'https://app.intercom.com/a/apps/abc123/inbox/inbox/conversation/1001' },
    });
    expect(items[1]).toMatchObject({
      title: 'Re: The export fails & times out.',
      content: 'Still broken',
      author: 'Grace Hopper',
      externalId: '1001:p2',
      metadata: { inReplyTo: '1001', partId: 'p2' },
    });
  });

  test('when a topic is not a customer message, then it is acknowledged and nothing is stored', async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'intercom', secret: CLIENT_SECRET });
    for (const topic of ['ping', 'conversation.admin.replied', 'contact.created']) {
      const body = notification(`notif_${topic}`, topic, conversation());
      expect(await post(hook.hookUrl!, body, signed(body))).toMatchObject({ status: 200, body: { received: 0 } });
    }
    expect(await inboxCount(hook.integration.id)).toBe(0);
  });

  test("when a notification is unsigned, wrongly signed, signed with another app's secret or older than 5 minutes, then 401 and nothing is stored", async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'intercom', secret: CLIENT_SECRET });
    const body = notification('notif_x', 'conversation.user.created', conversation());
    const stale = notification('notif_y', 'conversation.user.created', conversation(), seconds() - 6 * 60);
    const cases: Array<[string, string, Record<string, string>]> = [
      ['unsigned', body, {}],
      ['wrong', body, { 'x-hub-signature': `sha1=${'0'.repeat(40)}` }],
      ['another secret', body, signed(body, 'another-apps-secret')],
      ['stale', stale, signed(stale)],
    ];
    for (const [what, sent, headers] of cases)
      expect([what, (await post(hook.hookUrl!, sent, headers)).status]).toEqual([what, 401]);
    expect(await inboxCount(hook.integration.id)).toBe(0);
  });
});

describe('Slack', () => {
  const SIGNING_SECRET = `ss-${randomUUID()}`;
  const signed = (body: string, at = seconds(), secret = SIGNING_SECRET) => ({
    'x-slack-request-timestamp': String(at),
    'x-slack-signature': `v0=${hex('sha256', secret, `v0:${at}:${body}`)}`,
  });
  const message = (eventId: string, event: Record<string, unknown>) =>
    JSON.stringify({
      token: 'legacy',
      team_id: 'T1',
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: eventId,
      event_time: seconds(),
      event: { type: 'message', channel: 'C1', channel_type: 'channel', ...event },
    });

  test('when Slack verifies the URL, then its challenge is answered', async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'slack', secret: SIGNING_SECRET });
    const body = JSON.stringify({ token: 'legacy', challenge: 'c-123', type: 'url_verification' });
    expect(await post(hook.hookUrl!, body, signed(body))).toEqual({ status: 200, body: { challenge: 'c-123' } });
  });

  test('when a member writes in a channel, then the message is an item whose author comes from users.info; a retry adds nothing', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'slack', secret: SIGNING_SECRET, token: BOT_TOKEN });
    const body = message('Ev1', {
      user: 'U1',
      text: 'Dark mode &amp; <https://docs.example.com|the docs> are unreadable',
      ts: '1764400000.000100',
    });
    expect((await post(hook.hookUrl!, body, signed(body))).status).toBe(200);
    const retry = await post(hook.hookUrl!, body, {
      ...signed(body),
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(retry).toMatchObject({ status: 200, body: { stored: 0 } });
    await eventually(async () => (await itemsOf(stack, key, 'slack')).total === 1, 20_000, 'the item');
    expect((await itemsOf(stack, key, 'slack')).items[0]).toMatchObject({
      title: 'Dark mode & the docs are unreadable',
      author: 'Ada Lovelace',
      email: 'ada@example.com',
      externalId: 'C1:1764400000.000100',
      publishedDate: '2025-11-29T07:06:40.000Z',
      metadata: { channel: 'C1', userId: 'U1', url: 'https://slack.com/archives/C1/p1764400000000100' },
    });
    expect(slack.calls).toContain('GET /api/users.info');
  });

  test('when no bot token is given, then the author is the Slack user id', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'slack', secret: SIGNING_SECRET });
    const body = message('Ev2', { user: 'U1', text: 'Love the new search', ts: '1764400100.000200' });
    await post(hook.hookUrl!, body, signed(body));
    await eventually(async () => (await itemsOf(stack, key, 'slack')).total === 1, 20_000, 'the item');
    expect((await itemsOf(stack, key, 'slack')).items[0]).toMatchObject({ author: 'U1', email: null });
  });

  test('when a bot writes, a message is edited or deleted, or someone joins, then it is acknowledged and nothing is stored', async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'slack', secret: SIGNING_SECRET });
    const ignored = [
      message('Ev3', { subtype: 'bot_message', bot_id: 'B1', text: 'Deploy done', ts: '1.1' }),
      message('Ev4', { user: 'U1', bot_id: 'B2', text: 'From an app', ts: '1.2' }),
      message('Ev5', { subtype: 'message_changed', message: { text: 'edited' }, ts: '1.3' }),
      message('Ev6', { subtype: 'message_deleted', ts: '1.4' }),
      message('Ev7', { subtype: 'channel_join', user: 'U1', text: '<@U1> has joined the channel', ts: '1.5' }),
      JSON.stringify({ type: 'event_callback', event_id: 'Ev8', event: { type: 'reaction_added', user: 'U1' } }),
    ];
    for (const body of ignored)
      expect(await post(hook.hookUrl!, body, signed(body))).toMatchObject({ status: 200, body: { received: 0 } });
    expect(await inboxCount(hook.integration.id)).toBe(0);
  });

  test("when a request is unsigned, wrongly signed, signed with another app's secret or stale, then 401 and nothing is stored", async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'slack', secret: SIGNING_SECRET });
    const body = message('Ev9', { user: 'U1', text: 'Hello', ts: '1.6' });
    const cases: Array<[string, Record<string, string>]> = [
      ['unsigned', {}],
      ['wrong', { ...signed(body), 'x-slack-signature': `v0=${'0'.repeat(64)}` }],
      ['another secret', signed(body, seconds(), 'another-signing-secret')],
      ['stale', signed(body, seconds() - 6 * 60)],
    ];
    for (const [what, headers] of cases)
      expect([what, (await post(hook.hookUrl!, body, headers)).status]).toEqual([what, 401]);
    expect(await inboxCount(hook.integration.id)).toBe(0);
  });
});

describe('Zendesk (trigger webhook)', () => {
  const SECRET = `zd-${randomUUID()}`;
  const signed = (body: string, at = new Date(), secret = SECRET) => {
    const timestamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      'x-zendesk-webhook-signature-timestamp': timestamp,
      'x-zendesk-webhook-signature': createHmac('sha256', secret)
        .update(timestamp + body)
        .digest('base64'),
    };
  };
  const ticket = (id: string) =>
    JSON.stringify({
      ticket_id: id,
      subject: 'Cannot export invoices',
      description: 'The invoice export "hangs" at 90%.\nSince Monday.',
      requester_name: 'Katherine Johnson',
      requester_email: 'katherine@example.com',
      created_at: '2026-11-28T09:15:00Z',
      url: 'example.zendesk.com/agent/tickets/' + id,
    });

  test('when a trigger sends a new ticket, then it is an item with its requester and link; sent again, nothing more', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'zendesk', secret: SECRET });
    const body = ticket('7');
    expect((await post(hook.hookUrl!, body, signed(body))).status).toBe(200);
    expect(await post(hook.hookUrl!, body, signed(body))).toMatchObject({ status: 200, body: { stored: 0 } });
    await eventually(async () => (await itemsOf(stack, key, 'zendesk')).total === 1, 20_000, 'the item');
    expect((await itemsOf(stack, key, 'zendesk')).items[0]).toMatchObject({
      title: 'Cannot export invoices',
      content: 'The invoice export "hangs" at 90%.\nSince Monday.',
      author: 'Katherine Johnson',
      email: 'katherine@example.com',
      externalId: '7',
      publishedDate: '2026-11-28T09:15:00.000Z',
      metadata: { ticketId: '7', url: 'https://example.zendesk.com/agent/tickets/7' },
    });
    await eventually(async () => (await listIntegrations(stack, key))[0]?.itemsReceived === 1, 10_000, 'the count');
  });

  test("when a request is unsigned, wrongly signed, signed with another webhook's secret or stale, then 401 and nothing is stored", async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'zendesk', secret: SECRET });
    const body = ticket('8');
    const cases: Array<[string, Record<string, string>]> = [
      ['unsigned', {}],
      ['wrong', { ...signed(body), 'x-zendesk-webhook-signature': Buffer.alloc(32).toString('base64') }],
      ['another secret', signed(body, new Date(), 'another-webhook-secret')],
      ['stale', signed(body, new Date(Date.now() - 6 * 60_000))],
    ];
    for (const [what, headers] of cases)
      expect([what, (await post(hook.hookUrl!, body, headers)).status]).toEqual([what, 401]);
    expect(await inboxCount(hook.integration.id)).toBe(0);
  });
});
