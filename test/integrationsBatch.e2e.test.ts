import { addConnection, itemsOf, listIntegrations, post } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { ADD_ENDPOINT, FAST_WEBHOOKS } from './helpers/webhookQueries';
import { signed } from './helpers/signedWebhook';

/**
 * The integrations worker hands a connection's events to the feedback service in batches
 * (`addFeedbackItems`, internal): what a client sees of each item must be what one addFeedbackItem gives.
 */

const feedback = (n: number, title = `Request ${n}`) =>
  JSON.stringify({
    title,
    content: `Question number ${n}: the export never finishes.`,
    email: `customer${n % 3}@example.com`,
    externalId: `req-${n}`,
  });

let stack: Stack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  stack = await startStack({ ...FAST_WEBHOOKS, INTEGRATIONS_INBOX_BATCH: '25' });
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

describe('items made in batches', () => {
  test('when 40 events arrive at once (and 5 again), then 40 items exist, each announced by its own feedback.created webhook, counted once and counted for the connection', async () => {
    const { key, orgId } = await stack.createKey();
    const endpoint = await stack.gql(ADD_ENDPOINT, { k: key, url: receiver.url, events: ['feedback.created'] });
    expect(endpoint.body.errors).toBeUndefined();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const sent = Array.from({ length: 45 }, (_, i) => feedback(i % 40));
    const answers = await Promise.all(sent.map((body) => post(hook.hookUrl!, body, signed(hook.secret!, body))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(45).fill(200));

    await eventually(async () => (await listIntegrations(stack, key))[0]?.itemsReceived === 40, 120_000, '40 items');
    const items = await itemsOf(stack, key, 'webhook');
    // The total is the kept counts': each item counted once.
    expect(items.total).toBe(40);
    expect(new Set(items.items.map((item) => item.externalId)).size).toBe(items.items.length);
    await eventually(() => receiver.ofType('feedback.created').length >= 40, 60_000, '40 created webhooks');
    const announced = receiver
      .ofType('feedback.created')
      .map((delivery) => (delivery.json.data as unknown as { item: { id: string; externalId: string } }).item);
    expect(new Set(announced.map((item) => item.id)).size).toBe(40);
    const byId = new Map(items.items.map((item) => [item.id, item.externalId]));
    expect(announced.map((item) => item.externalId).sort()).toEqual(announced.map((item) => byId.get(item.id)).sort());
    expect(new Set(announced.map((item) => item.externalId)).size).toBe(40);
  });

  test('when one event of a batch breaks a rule, then it alone is refused (the connection says why) and the others become items', async () => {
    const { key, orgId } = await stack.createKey();
    const hook = await addConnection(stack, orgId, { kind: 'webhook' });
    const bodies = [feedback(1), feedback(2, 'x'.repeat(501)), feedback(3), feedback(4)];
    const answers = await Promise.all(bodies.map((body) => post(hook.hookUrl!, body, signed(hook.secret!, body))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await eventually(
      async () => {
        const [listed] = await listIntegrations(stack, key);
        return listed?.itemsReceived === 3 && listed.lastError !== null;
      },
      120_000,
      'three items and the refusal',
    );
    const [listed] = await listIntegrations(stack, key);
    expect(listed.lastError).toMatch(/refused: .*title/i);
    expect((await itemsOf(stack, key, 'webhook')).items.map((item) => item.externalId).sort()).toEqual([
      'req-1',
      'req-3',
      'req-4',
    ]);
  });

  test('when a client asks the public API for the internal batch mutation, then it does not exist there', async () => {
    const { key } = await stack.createKey();
    const answer = await stack.gql(
      `mutation($k: String!) { addFeedbackItems(apiKey: $k, inputs: [{ source: "api", title: "t", content: "c" }]) { refused } }`,
      { k: key },
    );
    expect(answer.body.errors?.[0].message).toMatch(/Cannot query field "addFeedbackItems"/);
    expect((await itemsOf(stack, key, 'api')).total).toBe(0);
  });
});
