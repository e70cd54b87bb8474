import { Webhook } from 'standardwebhooks';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { ADD_ENDPOINT, DELIVERIES, FAST_WEBHOOKS, LIST_ENDPOINTS, REMOVE_ENDPOINT } from './helpers/webhookQueries';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  secret: string | null;
  enabled: boolean;
  disabledReason: string | null;
}
interface Delivery {
  eventId: string;
  eventType: string;
  status: string;
  attempts: Array<{ statusCode: number | null; error: string | null }>;
}

const ALL_EVENTS = ['feedback.created', 'feedback.deleted'];
const input = (title: string) => ({
  source: 'api',
  title,
  content: 'Export is slow',
  email: 'ada@example.com',
  sentiment: 'negative',
});

describe('outbound webhooks', () => {
  let stack: Stack;
  const receivers: WebhookReceiver[] = [];
  const receiver = async () => {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  };
  beforeAll(async () => {
    // A feedback database of its own: every stack's dispatcher works on its database's whole queue, and
    // other test files' stacks (default retry schedule and target policy) must not take these deliveries.
    stack = await startStack(FAST_WEBHOOKS, { databases: { feedback: ownDatabaseName('webhooks') } });
  });
  afterAll(async () => {
    await stack.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function addEndpoint(key: string, url: string, events = ALL_EVENTS): Promise<Endpoint> {
    const added = await stack.gql<{ addWebhookEndpoint: Endpoint }>(ADD_ENDPOINT, { k: key, url, events });
    expect(added.body.errors).toBeUndefined();
    return added.body.data!.addWebhookEndpoint;
  }
  async function addItem(key: string, title = 'Slow export'): Promise<string> {
    const created = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
      apiKey: key,
      input: input(title),
    });
    expect(created.body.errors).toBeUndefined();
    return created.body.data!.addFeedbackItem.id;
  }
  async function deliveries(key: string, endpointId: string): Promise<Delivery[]> {
    const answer = await stack.gql<{ webhookDeliveries: { items: Delivery[] } }>(DELIVERIES, {
      k: key,
      id: endpointId,
      take: 100,
    });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data!.webhookDeliveries.items;
  }
  async function endpoints(key: string): Promise<Endpoint[]> {
    return (await stack.gql<{ webhookEndpoints: Endpoint[] }>(LIST_ENDPOINTS, { k: key })).body.data!.webhookEndpoints;
  }

  test('when an item is created and removed, then signed events arrive that verify with the standardwebhooks library', async () => {
    const { key, orgId } = await stack.createKey();
    const hooks = await receiver();
    const endpoint = await addEndpoint(key, hooks.url);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const id = await addItem(key);
    expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id })).body.data).toEqual({ removeFeedbackItem: true });
    await eventually(() => hooks.received.length >= 2, 20_000, 'both events');

    const verifier = new Webhook(endpoint.secret!);
    for (const received of hooks.received) {
      expect(() => verifier.verify(received.body, received.headers)).not.toThrow();
      expect(received.headers['webhook-id']).toBe(received.json.id);
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.body).not.toContain(orgId);
    }
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        hooks.received[0].body,
        hooks.received[0].headers,
      ),
    ).toThrow();
    const [created, deleted] = hooks.received.map((r) => r.json);
    expect(created).toMatchObject({
      id: `evt_${id}_created`,
      type: 'feedback.created',
      data: { item: { id, title: 'Slow export', status: 'unread', sentiment: 'negative' } },
    });
    expect(deleted).toMatchObject({
      id: `evt_${id}_deleted`,
      type: 'feedback.deleted',
      data: { item: { id, title: 'Slow export' } },
    });
    expect(new Date(created.timestamp).toISOString()).toBe(created.timestamp);

    await eventually(
      async () => (await deliveries(key, endpoint.id)).every((d) => d.status === 'delivered'),
      10_000,
      'delivered history',
    );
    const history = await deliveries(key, endpoint.id);
    expect(history.map((d) => [d.eventType, d.status, d.attempts.map((a) => a.statusCode)])).toEqual([
      ['feedback.deleted', 'delivered', [200]],
      ['feedback.created', 'delivered', [200]],
    ]);
    const listed = await endpoints(key);
    expect(listed).toEqual([
      expect.objectContaining({
        id: endpoint.id,
        url: hooks.url,
        events: ALL_EVENTS,
        secret: null,
        enabled: true,
        disabledReason: null,
      }),
    ]);
  });

  test('when statuses change, one by one and in bulk, then each change sends feedback.status_changed with the previous and new values', async () => {
    const { key } = await stack.createKey();
    const hooks = await receiver();
    await addEndpoint(key, hooks.url, ['feedback.status_changed']);
    const first = await addItem(key, 'First');
    const second = await addItem(key, 'Second');
    const one = await stack.gql(
      `mutation($k: String!, $id: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: "read") { id } }`,
      { k: key, id: first },
    );
    expect(one.body.errors).toBeUndefined();
    const bulk = await stack.gql(
      `mutation($k: String!, $ids: [String!]!) { updateFeedbackItemsStatus(apiKey: $k, ids: $ids, status: "archived") }`,
      { k: key, ids: [first, second] },
    );
    expect(bulk.body.data).toEqual({ updateFeedbackItemsStatus: 2 });
    // Setting the current status changes nothing, so it sends nothing.
    await stack.gql(
      `mutation($k: String!, $id: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: "archived") { id } }`,
      { k: key, id: second },
    );

    // Delivery is at least once: a retry after a slow answer on a loaded machine repeats an event (same id).
    const events = () => [...new Map(hooks.received.map((r) => [r.json.id, r])).values()];
    await eventually(() => events().length >= 3, 20_000, 'three status events');
    const changes = events().map((r) => [
      r.json.type,
      r.json.data.item.id,
      r.json.data.previous?.status,
      r.json.data.item.status,
    ]);
    expect(changes.slice(0, 1)).toEqual([['feedback.status_changed', first, 'unread', 'read']]);
    expect(changes.slice(1).sort()).toEqual(
      [
        ['feedback.status_changed', first, 'read', 'archived'],
        ['feedback.status_changed', second, 'unread', 'archived'],
      ].sort(),
    );
    expect(events()).toHaveLength(3);
    expect(events()[0].json.data.previous).toEqual({ status: 'unread', updatedAt: expect.any(String) });
    expect((await deliveries(key, (await endpoints(key))[0].id)).length).toBe(3);
  });

  test('when the receiver answers 500 and then times out, then the event is retried with the same webhook-id until it is delivered', async () => {
    const { key } = await stack.createKey();
    const hooks = await receiver();
    hooks.answer([500, 'hang'], 200);
    const endpoint = await addEndpoint(key, hooks.url, ['feedback.created']);
    const id = await addItem(key);

    const settled = async () => ['delivered', 'failed'].includes((await deliveries(key, endpoint.id))[0]?.status);
    await eventually(settled, 45_000, 'delivery after retries');
    const [delivery] = await deliveries(key, endpoint.id);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ statusCode: 500, error: 'HTTP 500' }),
      expect.objectContaining({ statusCode: null, error: 'no answer within 700 ms' }),
      expect.objectContaining({ statusCode: 200, error: null }),
    ]);
    expect(hooks.received.map((r) => r.headers['webhook-id'])).toEqual([
      `evt_${id}_created`,
      `evt_${id}_created`,
      `evt_${id}_created`,
    ]);
    expect((await endpoints(key))[0]).toMatchObject({ enabled: true, failingSince: null });
  });

  test('when a receiver keeps failing past the retry window, then the delivery fails and the endpoint is disabled with the reason', async () => {
    const { key } = await stack.createKey();
    const hooks = await receiver();
    hooks.answer([], 503);
    const endpoint = await addEndpoint(key, hooks.url, ['feedback.created']);
    await addItem(key);

    // The retry window is 8 s; a loaded machine may take longer to get through it.
    await eventually(async () => !(await endpoints(key))[0].enabled, 60_000, 'the endpoint disabled');
    const [listed] = await endpoints(key);
    expect(listed.disabledReason).toMatch(/failed \d+ attempts over 8 s \(last: HTTP 503\)/);
    const [delivery] = await deliveries(key, endpoint.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(3);
    // Every attempt met the failing receiver: a 503, or on a loaded machine the 700 ms attempt timeout.
    expect(delivery.attempts.some((a) => a.statusCode === 503)).toBe(true);
    expect(delivery.attempts.every((a) => a.statusCode === 503 || /^no answer within/.test(a.error ?? ''))).toBe(true);

    // A disabled endpoint receives nothing more.
    const before = hooks.received.length;
    await addItem(key, 'After disabling');
    const second = await addEndpoint(key, (await receiver()).url, ['feedback.created']);
    await addItem(key, 'Seen by the new endpoint');
    await eventually(
      async () => (await deliveries(key, second.id)).some((d) => d.status === 'delivered'),
      20_000,
      'the new endpoint served',
    );
    expect(hooks.received.length).toBe(before);
  }, 120_000);

  test('when several items are created while the receiver fails at first, then they arrive in the order they were created', async () => {
    const { key } = await stack.createKey();
    const hooks = await receiver();
    hooks.answer([500, 500], 200);
    await addEndpoint(key, hooks.url, ['feedback.created']);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await addItem(key, `Item ${i}`));

    await eventually(() => new Set(hooks.received.map((r) => r.json.data.item.id)).size === 5, 20_000, 'five events');
    const firstArrivals = [...new Set(hooks.received.map((r) => r.json.data.item.id))];
    expect(firstArrivals).toEqual(ids);
  });

  test('when two organizations have endpoints, then each sees and receives only its own', async () => {
    const a = await stack.createKey();
    const b = await stack.createKey();
    const hooksA = await receiver();
    const hooksB = await receiver();
    const endpointA = await addEndpoint(a.key, hooksA.url);
    const endpointB = await addEndpoint(b.key, hooksB.url);
    const itemA = await addItem(a.key, 'Only for A');
    const itemB = await addItem(b.key, 'Only for B');

    await eventually(() => hooksA.received.length >= 1 && hooksB.received.length >= 1, 20_000, 'one event each');
    expect(hooksA.received.map((r) => r.json.data.item.id)).toEqual([itemA]);
    expect(hooksB.received.map((r) => r.json.data.item.id)).toEqual([itemB]);
    expect((await endpoints(a.key)).map((e) => e.id)).toEqual([endpointA.id]);
    const foreignRemove = await stack.gql(REMOVE_ENDPOINT, { k: b.key, id: endpointA.id });
    expect(foreignRemove.body.errors?.[0]).toMatchObject({
      message: 'Webhook endpoint not found',
      extensions: { code: 'NOT_FOUND' },
    });
    const foreignDeliveries = await stack.gql(DELIVERIES, { k: b.key, id: endpointA.id });
    expect(foreignDeliveries.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await endpoints(a.key)).map((e) => e.id)).toEqual([endpointA.id]);

    expect((await stack.gql(REMOVE_ENDPOINT, { k: b.key, id: endpointB.id })).body.data).toEqual({
      removeWebhookEndpoint: true,
    });
    expect(await endpoints(b.key)).toEqual([]);
  });

  test('when a read-only key manages endpoints, then it may list them but not add or remove them', async () => {
    const writer = await stack.createKey();
    const reader = await stack.createKey({ orgId: writer.orgId, readOnly: true });
    const endpoint = await addEndpoint(writer.key, (await receiver()).url);
    expect((await endpoints(reader.key)).map((e) => e.id)).toEqual([endpoint.id]);
    for (const [query, variables] of [
      [ADD_ENDPOINT, { k: reader.key, url: 'http://127.0.0.1:9/x', events: ALL_EVENTS }],
      [REMOVE_ENDPOINT, { k: reader.key, id: endpoint.id }],
    ] as const) {
      const refused = await stack.gql(query, variables);
      expect(refused.body.errors?.[0]).toMatchObject({
        message: 'Not authorized to manage webhook endpoints',
        extensions: { code: 'FORBIDDEN' },
      });
    }
    expect((await stack.gql(LIST_ENDPOINTS, { k: 'fik_nope' })).body.errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  test('when deliveries succeed, fail and hang, then /metrics counts them by outcome and shows the backlog and its age', async () => {
    // The deliveries are the feedback worker's: its own /metrics count them.
    const metric = async (name: string) => {
      const text = await (await fetch(`${stack.worker!.url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(name));
      return line ? Number(line.split(' ').at(-1)) : NaN;
    };
    expect(await metric('fi_webhook_deliveries_total{outcome="delivered"')).toBeGreaterThan(0);
    expect(await metric('fi_webhook_deliveries_total{outcome="retry"')).toBeGreaterThan(0);
    expect(await metric('fi_webhook_deliveries_total{outcome="failed"')).toBeGreaterThan(0);

    const { key } = await stack.createKey();
    const hooks = await receiver();
    hooks.answer([], 'hang');
    const endpoint = await addEndpoint(key, hooks.url, ['feedback.created']);
    await addItem(key, 'Stuck');
    await addItem(key, 'Behind it');
    await eventually(
      async () =>
        (await metric('fi_webhook_queue_depth')) >= 2 && (await metric('fi_webhook_oldest_pending_age_seconds')) > 0.5,
      20_000,
      'the backlog',
    );
    await stack.gql(REMOVE_ENDPOINT, { k: key, id: endpoint.id });
  });

  test.each([
    ['no events', 'http://127.0.0.1:9/x', [], /events must name at least one event/],
    ['an unknown event', 'http://127.0.0.1:9/x', ['feedback.exploded'], /events must be among feedback.created/],
    ['an overlong event name', 'http://127.0.0.1:9/x', ['x'.repeat(101)], /at most 100 characters/],
    // Twice the event types is the limit (repeats allowed, so a generated list may repeat some).
    ['too many events', 'http://127.0.0.1:9/x', Array(100).fill('feedback.created'), /at most \d+ entries \(got 100\)/],
    ['an overlong url', `http://127.0.0.1:9/${'x'.repeat(2048)}`, ALL_EVENTS, /url must be at most 2048 characters/],
    ['a relative url', '/hooks', ALL_EVENTS, /url must be an absolute URL/],
    ['an ftp url', 'ftp://127.0.0.1/x', ALL_EVENTS, /url must use https or http/],
    ['credentials in the url', 'http://user:pw@127.0.0.1:9/x', ALL_EVENTS, /must not contain a user name or password/],
    [
      'a private IPv4 address',
      'http://10.1.2.3/x',
      ALL_EVENTS,
      /10\.1\.2\.3 is a private, loopback, link-local or reserved address/,
    ],
    ['the cloud metadata address', 'http://169.254.169.254/latest', ALL_EVENTS, /169\.254\.169\.254 is a private/],
    ['an unspecified address', 'http://0.0.0.0:8080/', ALL_EVENTS, /is a private/],
    ['an IPv4-mapped private IPv6 address', 'http://[::ffff:192.168.1.1]/x', ALL_EVENTS, /is a private/],
    ['a unique-local IPv6 address', 'http://[fd00::1]/x', ALL_EVENTS, /fd00::1 is a private/],
    ['a link-local IPv6 address', 'http://[fe80::1]/x', ALL_EVENTS, /fe80::1 is a private/],
    ['a name that does not resolve', 'http://no-such-host.invalid/x', ALL_EVENTS, /does not resolve/],
  ])(
    'when an endpoint has %s, then BAD_REQUEST names the problem and nothing is added',
    async (_, url, events, message) => {
      const { key } = await stack.createKey();
      const refused = await stack.gql(ADD_ENDPOINT, { k: key, url, events });
      expect(refused.body.errors?.[0]).toMatchObject({
        message: expect.stringMatching(message),
        extensions: { code: 'BAD_REQUEST' },
      });
      expect(await endpoints(key)).toEqual([]);
    },
  );
});
