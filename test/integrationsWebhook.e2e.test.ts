import { randomUUID } from 'node:crypto';
import { loadIntegrationsWorkerConfig, startIntegrationsWorker } from '@fi/integrations';
import { createLogger } from '@fi/shared';
import { addConnection, itemsOf, listIntegrations, post } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';
import { signed } from './helpers/signedWebhook';

/** Standard Webhooks headers for `body`, signed with `secret` at `at` by the reference library. */

const feedback = (externalId: string, title = 'Export never finishes') =>
  JSON.stringify({
    title,
    content: 'The CSV export spins forever on large workspaces.',
    author: 'Ada Lovelace',
    email: 'ada@example.com',
    externalId,
    publishedDate: '2026-11-01T10:00:00.000Z',
    metadata: { url: `https://support.example.com/requests/${externalId}` },
  });

describe('generic webhook connections (Standard Webhooks)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  test('when a signed event arrives, then it is acknowledged 200 and becomes one item with the platform as source', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook', name: 'Support portal' });
    expect(hook.secret).toMatch(/^whsec_/);
    const body = feedback('req-1');
    const answer = await post(hook.hookUrl!, body, signed(hook.secret!, body));
    expect(answer.status).toBe(200);
    await eventually(async () => (await itemsOf(stack, key, 'webhook')).total === 1, 60_000, 'the item');
    const [item] = (await itemsOf(stack, key, 'webhook')).items;
    expect(item).toMatchObject({
      source: 'webhook',
      title: 'Export never finishes',
      author: 'Ada Lovelace',
      email: 'ada@example.com',
      externalId: 'req-1',
      publishedDate: '2026-11-01T10:00:00.000Z',
      metadata: { url: 'https://support.example.com/requests/req-1' },
    });
    await eventually(async () => (await listIntegrations(stack, key))[0]?.itemsReceived === 1, 60_000, 'the count');
    const [listed] = await listIntegrations(stack, key);
    expect(listed).toMatchObject({
      id: hook.integration.id,
      kind: 'webhook',
      name: 'Support portal',
      status: 'active',
      lastError: null,
    });
    expect(JSON.stringify(listed)).not.toContain(hook.secret!.slice(6));
  });

  test('when an event is redelivered, retried under another message id, or sent many times at once, then one item exists', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const body = feedback('req-dup');
    const headers = signed(hook.secret!, body);
    expect((await post(hook.hookUrl!, body, headers)).status).toBe(200);
    const again = await post(hook.hookUrl!, body, headers);
    expect(again).toMatchObject({ status: 200, body: { stored: 0 } });
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => post(hook.hookUrl!, body, signed(hook.secret!, body))),
    );
    expect(burst.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    await eventually(async () => (await itemsOf(stack, key, 'webhook')).total >= 1, 60_000, 'the item');
    // Every stored event is worked on (7 distinct message ids); each converges on the one item.
    const connection = await stack.connect('integrations');
    await eventually(
      async () =>
        (await connection
          .collection('inbox_events')
          .countDocuments({ connectionId: hook.integration.id, outcome: 'pending' })) === 0,
      20_000,
      'every event processed',
    );
    expect(await connection.collection('inbox_events').countDocuments({ connectionId: hook.integration.id })).toBe(7);
    expect((await itemsOf(stack, key, 'webhook')).total).toBe(1);
    // The one item is counted once, whichever of the seven events made or found it.
    expect((await listIntegrations(stack, key))[0].itemsReceived).toBe(1);
  });

  test('when many distinct events arrive at once, then each becomes an item and each is counted', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const bodies = Array.from({ length: 12 }, (_, i) => feedback(`many-${i}`, `Item ${i}`));
    const answers = await Promise.all(bodies.map((body) => post(hook.hookUrl!, body, signed(hook.secret!, body))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    await eventually(async () => (await itemsOf(stack, key, 'webhook')).total === 12, 60_000, 'twelve items');
    await eventually(
      async () => (await listIntegrations(stack, key))[0].itemsReceived === 12,
      10_000,
      'twelve counted',
    );
  });

  test("when a request is unsigned, wrongly signed, signed with another connection's secret or stale, then 401 and nothing is stored", async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const other = await addConnection(stack, orgId, { kind: 'webhook' });
    const body = feedback('req-bad');
    const good = signed(hook.secret!, body);
    const cases: Array<[string, Record<string, string>]> = [
      ['unsigned', {}],
      ['no signature', { 'webhook-id': good['webhook-id'], 'webhook-timestamp': good['webhook-timestamp'] }],
      ['wrong signature', { ...good, 'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')}` }],
      ['another connection', signed(other.secret!, body)],
      ['stale', signed(hook.secret!, body, `msg_${randomUUID()}`, new Date(Date.now() - 6 * 60_000))],
      ['body changed', { ...good }],
    ];
    for (const [what, headers] of cases) {
      const sent = what === 'body changed' ? body.replace('Export', 'Import') : body;
      const answer = await post(hook.hookUrl!, sent, headers);
      expect([what, answer.status]).toEqual([what, 401]);
    }
    const connection = await stack.connect('integrations');
    expect(await connection.collection('inbox_events').countDocuments({ connectionId: hook.integration.id })).toBe(0);
  });

  test('when a body is too large, not JSON, or to an unknown token, then 413, 400 and 404', async () => {
    const { orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const large = JSON.stringify({ title: 'x', content: 'y'.repeat(1024 * 1024 + 10) });
    expect((await post(hook.hookUrl!, large, signed(hook.secret!, large))).status).toBe(413);
    const broken = '{"title": ';
    expect((await post(hook.hookUrl!, broken, signed(hook.secret!, broken))).status).toBe(400);
    const unknown = hook.hookUrl!.replace(/[0-9a-f]{40}$/, '0'.repeat(40));
    expect((await post(unknown, '{}', {})).status).toBe(404);
  });

  test("when the feedback rules refuse an event, then it is the connection's last error with the reason, and no item is made", async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const body = JSON.stringify({ content: 'No title here', externalId: 'req-untitled' });
    expect((await post(hook.hookUrl!, body, signed(hook.secret!, body))).status).toBe(200);
    await eventually(async () => (await listIntegrations(stack, key))[0]?.lastError !== null, 60_000, 'the error');
    const [listed] = await listIntegrations(stack, key);
    expect(listed.lastError).toMatch(/title/);
    expect(listed.itemsReceived).toBe(0);
    expect((await itemsOf(stack, key, 'webhook')).total).toBe(0);
  });

  test('when two organizations receive the same external id, then each has its own item and sees only its own connections', async () => {
    const a = await stack.createKey();
    const b = await stack.createKey();
    const hookA = await addConnection(stack, a.orgId, { kind: 'webhook' });
    const hookB = await addConnection(stack, b.orgId, { kind: 'webhook' });
    const body = feedback('shared-7');
    await post(hookA.hookUrl!, body, signed(hookA.secret!, body));
    await post(hookB.hookUrl!, body, signed(hookB.secret!, body));
    await eventually(async () => (await itemsOf(stack, a.key, 'webhook')).total === 1, 60_000, "a's item");
    await eventually(async () => (await itemsOf(stack, b.key, 'webhook')).total === 1, 60_000, "b's item");
    expect((await listIntegrations(stack, a.key)).map((i) => i.id)).toEqual([hookA.integration.id]);
    expect((await listIntegrations(stack, b.key)).map((i) => i.id)).toEqual([hookB.integration.id]);
  });

  test('when simultaneous addFeedbackItem calls carry the same external id, then one item exists and each answer is it', async () => {
    const { key } = await stack.createKey();
    const input = { source: 'webhook', title: 'Same', content: 'Same ticket.', externalId: 'race-1' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        stack.gql<{ addFeedbackItem: { id: string } }>(
          'mutation($k: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $k, input: $input) { id } }',
          { k: key, input },
        ),
      ),
    );
    const ids = new Set(answers.map((answer) => answer.body.data?.addFeedbackItem.id));
    expect(ids.size).toBe(1);
    expect((await itemsOf(stack, key, 'webhook')).total).toBe(1);
  });

  // Last: it stops this stack's worker.
  test('when no worker runs after the 200, then the event waits in the inbox and a worker started later makes its item', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    await stack.integrationsWorker.close(1_000);
    const body = feedback('after-crash');
    expect((await post(hook.hookUrl!, body, signed(hook.secret!, body))).status).toBe(200);
    const inbox = (await stack.connect('integrations')).collection('inbox_events');
    expect(await inbox.countDocuments({ connectionId: hook.integration.id, outcome: 'pending' })).toBe(1);
    expect((await itemsOf(stack, key, 'webhook')).total).toBe(0);
    const worker = await startIntegrationsWorker(
      loadIntegrationsWorkerConfig({
        ...process.env,
        PORT: '0',
        MONGODB_DB: stack.integrationsWorker.connection.name,
        FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
        INTEGRATIONS_INBOX_POLL_MS: '100',
      }),
      createLogger('test', 'silent'),
    );
    try {
      await eventually(async () => (await itemsOf(stack, key, 'webhook')).total === 1, 60_000, 'the item');
      expect(await inbox.countDocuments({ connectionId: hook.integration.id, outcome: 'done' })).toBe(1);
    } finally {
      await worker.close(1_000);
    }
  });
});
