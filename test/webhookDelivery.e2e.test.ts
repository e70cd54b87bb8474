import { Types } from 'mongoose';
import { createLogger } from '@fi/shared';
import { connectMongo, type RunningSubgraph } from '@fi/shared/database';
import { freePort } from '@fi/cli/embedded';
import { createKeyAt, signedIdentityFor } from './helpers/keys';
import { spawnFeedbackWithWorker, startFeedbackWithWorker } from './helpers/feedbackService';
import { eventually, PROCESS_START_MS } from './helpers/processes';
import { ADD_FEEDBACK } from './helpers/queries';
import { newOrgId, ownDatabaseName } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { ADD_ENDPOINT, DELIVERIES, FAST_WEBHOOKS } from './helpers/webhookQueries';

/** Webhooks across process lifetimes and policies: each test has a feedback database of its own. */

const mongodbUri = () => process.env.MONGODB_URI as string;
const ownDatabase = () => ownDatabaseName('webhooks');
const input = (title: string) => ({ source: 'api', title, content: 'Checkout fails' });

interface Answer<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions: { code: string } }>;
}
/** Straight to the feedback service, with the identity the gateway would sign for the request's key. */
async function gql<T>(url: string, query: string, variables: Record<string, unknown>): Promise<Answer<T>> {
  const identity = signedIdentityFor(String(variables.k ?? variables.apiKey));
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...identity },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Answer<T>;
}
const addEndpoint = (url: string, k: string, target: string) =>
  gql<{ addWebhookEndpoint: { id: string; secret: string } }>(url, ADD_ENDPOINT, {
    k,
    url: target,
    events: ['feedback.created'],
  });
const addItem = (url: string, apiKey: string, title: string) =>
  gql<{ addFeedbackItem: { id: string } }>(url, ADD_FEEDBACK, { apiKey, input: input(title) });

/** A feedback item as the service stores it, and the recorded event of its creation (an outbox intent). */
const legacyItem = (title: string, at: Date) => ({
  source: 'api',
  title,
  content: 'x',
  status: 'unread',
  publishedDate: at,
  createdAt: at,
});
const intent = (
  orgId: string,
  id: Types.ObjectId,
  occurredAt: Date,
  item: ReturnType<typeof legacyItem>,
  ready = false,
) => ({
  _id: `evt_${id.toHexString()}_created`,
  orgId,
  itemId: id.toHexString(),
  type: 'feedback.created',
  occurredAt,
  data: { item: { id: id.toHexString(), ...item } },
  ...(ready ? { ready } : {}),
});

/** The service and its worker (which relays and delivers), in this process. */
const inProcess = (env: NodeJS.ProcessEnv) =>
  startFeedbackWithWorker(
    {
      MONGODB_URI: mongodbUri(),
      PORT: '0',
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
      IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
      ...env,
    },
    createLogger('feedback', process.env.TEST_LOG_LEVEL ?? 'silent'),
  );

describe('webhook durability', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());

  test(
    'when the service is killed with SIGKILL right after items were created, then after a restart every event is delivered',
    async () => {
      const key = await createKeyAt(mongodbUri());
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = { ...FAST_WEBHOOKS, MONGODB_URI: mongodbUri(), MONGODB_DB: ownDatabase(), PORT: String(port) };
      // While the first processes live, the receiver never answers: nothing their worker sends can complete.
      receiver.answer([], 'hang');

      // The service is its API and its worker: both are killed.
      const first = await spawnFeedbackWithWorker(env);
      const ids: string[] = [];
      try {
        expect((await addEndpoint(url, key, receiver.url)).errors).toBeUndefined();
        const created = await Promise.all([1, 2, 3, 4, 5].map((n) => addItem(url, key, `Item ${n}`)));
        ids.push(...created.map((answer) => answer.data!.addFeedbackItem.id));
      } finally {
        await first.kill();
      }
      // Only what the restarted processes send counts: requests the first ones left hanging were never answered.
      receiver.received.length = 0;
      receiver.answer([], 200);

      const second = await spawnFeedbackWithWorker(env);
      try {
        const delivered = () => new Set(receiver.received.map((r) => r.json.data.item.id));
        // Deliveries in flight at the kill wait for their lease to run out (attempt timeout + 5 s).
        await eventually(() => ids.every((id) => delivered().has(id)), 45_000, 'every event after the restart');
        expect([...delivered()].sort()).toEqual([...ids].sort());
        // Duplicates are allowed (at least once) but carry the event's own id.
        for (const received of receiver.received)
          expect(received.headers['webhook-id']).toBe(`evt_${received.json.data.item.id}_created`);
      } finally {
        await second.kill();
      }
    },
    2 * PROCESS_START_MS + 90_000,
  );

  test('when a crash left recorded events behind, then the relay sends those whose change was written and drops the others', async () => {
    const database = ownDatabase();
    const service = await inProcess({ ...FAST_WEBHOOKS, MONGODB_DB: database });
    const connection = await connectMongo(mongodbUri(), database);
    try {
      const orgId = newOrgId();
      const key = await createKeyAt(mongodbUri(), orgId);
      receiver.answer([], 200);
      expect((await addEndpoint(service.url, key, receiver.url)).errors).toBeUndefined();
      // What a process killed between its write and the relay leaves: an event recorded before the
      // change, and the change naming the event. And an event whose change never got written.
      const written = new Types.ObjectId();
      const lost = new Types.ObjectId();
      const now = new Date();
      const item = legacyItem('Left behind', now);
      const outbox = connection.collection<{ _id: string }>('webhook_outbox');
      await outbox.insertMany([
        intent(orgId, written, now, item),
        intent(orgId, lost, new Date(now.getTime() - 120_000), item),
      ]);
      await connection
        .collection('feedback_items')
        .insertOne({ _id: written, orgId, ...item, webhookEventIds: [`evt_${written.toHexString()}_created`] });

      await eventually(
        () => receiver.received.some((r) => r.json.data.item.id === written.toHexString()),
        20_000,
        'the written change sent',
      );
      // A closed creation stays (closed) for the idempotency window, so a replay never records it again.
      await eventually(
        async () => (await outbox.countDocuments({ doneAt: null })) === 0,
        20_000,
        'the outbox has no open change',
      );
      expect(receiver.received.some((r) => r.json.data.item.id === lost.toHexString())).toBe(false);
    } finally {
      await service.close(1_000);
      await connection.close();
    }
  });
});

describe('target policy', () => {
  let receiver: WebhookReceiver;
  const services: RunningSubgraph[] = [];
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close(1_000)));
    await receiver.close();
  });

  test('when the production defaults apply, then http and loopback targets are refused', async () => {
    const service = await inProcess({ MONGODB_DB: ownDatabase() });
    services.push(service);
    const key = await createKeyAt(mongodbUri());
    for (const [target, message] of [
      [receiver.url, 'url must use https'],
      [
        'https://127.0.0.1/hooks',
        'url resolves to 127.0.0.1 is a private, loopback, link-local or reserved address; webhooks go to public addresses only',
      ],
      [
        'https://[::1]/hooks',
        'url resolves to ::1 is a private, loopback, link-local or reserved address; webhooks go to public addresses only',
      ],
      ['https://localhost/hooks', 'is a private, loopback, link-local or reserved address'],
    ]) {
      const refused = await addEndpoint(service.url, key, target);
      expect(refused.errors?.[0]).toMatchObject({
        message: expect.stringContaining(message),
        extensions: { code: 'BAD_REQUEST' },
      });
    }
  });

  test('when an accepted target is refused by the policy at delivery time, then nothing is sent and the attempt says why', async () => {
    const database = ownDatabase();
    const key = await createKeyAt(mongodbUri());
    const lenient = await inProcess({ ...FAST_WEBHOOKS, MONGODB_DB: database });
    const endpoint = (await addEndpoint(lenient.url, key, receiver.url)).data!.addWebhookEndpoint;
    await lenient.close(1_000);

    // Same database, stricter instance: the address is checked again when connecting.
    const strict = await inProcess({ ...FAST_WEBHOOKS, WEBHOOK_PRIVATE_TARGETS: 'refuse', MONGODB_DB: database });
    services.push(strict);
    const before = receiver.received.length;
    await addItem(strict.url, key, 'Never sent');
    type Deliveries = {
      webhookDeliveries: { items: Array<{ attempts: Array<{ statusCode: number | null; error: string }> }> };
    };
    const attempts = async () =>
      (await gql<Deliveries>(strict.url, DELIVERIES, { k: key, id: endpoint.id })).data?.webhookDeliveries.items[0]
        ?.attempts ?? [];
    await eventually(async () => (await attempts()).length >= 1, 20_000, 'a refused attempt');
    expect((await attempts())[0]).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^refused: .*127\.0\.0\.1 is a private, loopback/),
    });
    expect(receiver.received.length).toBe(before);
  });
});

describe('fair delivery', () => {
  let healthy: WebhookReceiver;
  let stuck: WebhookReceiver;
  const services: RunningSubgraph[] = [];
  beforeAll(async () => {
    healthy = await WebhookReceiver.start();
    stuck = await WebhookReceiver.start();
    stuck.answer([], 'hang');
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close(1_000)));
    await Promise.all([healthy.close(), stuck.close()]);
  });
  // Long enough that no endpoint of these tests is disabled (which would end the other's backlog).
  const NEVER_DISABLED = { ...FAST_WEBHOOKS, WEBHOOK_RETRY_WINDOW_MS: '600000' };
  const arrived = (title: string) => healthy.received.some((r) => r.json.data.item.title === title);

  test("when one organization's endpoint never answers and hundreds of its events are queued, then another organization's event still arrives", async () => {
    const database = ownDatabase();
    const service = await inProcess({ ...NEVER_DISABLED, MONGODB_DB: database });
    services.push(service);
    const connection = await connectMongo(mongodbUri(), database);
    try {
      const slowOrg = newOrgId();
      const slow = await createKeyAt(mongodbUri(), slowOrg);
      const other = await createKeyAt(mongodbUri());
      expect((await addEndpoint(service.url, slow, stuck.url)).errors).toBeUndefined();
      expect((await addEndpoint(service.url, other, healthy.url)).errors).toBeUndefined();
      // More deliveries ahead of the other organization's than a dispatcher round used to look at (500),
      // recorded as the events of changes already made (through the API they would take minutes here).
      const start = Date.now() - 60_000;
      const backlog = Array.from({ length: 520 }, (_, n) =>
        intent(
          slowOrg,
          new Types.ObjectId(),
          new Date(start + n),
          legacyItem(`Backlog ${n}`, new Date(start + n)),
          true,
        ),
      );
      await connection.collection<{ _id: string }>('webhook_outbox').insertMany(backlog);

      expect((await addItem(service.url, other, 'Behind a backlog')).errors).toBeUndefined();
      await eventually(() => arrived('Behind a backlog'), 120_000, "the other organization's event");
      // The backlog was being tried meanwhile, and is still there.
      expect(stuck.received.length).toBeGreaterThan(0);
      expect(await connection.collection('webhook_queue').countDocuments({})).toBeGreaterThan(500);
    } finally {
      await connection.close();
    }
  }, 240_000);

  test("when one organization's endpoints all hang and are retried at once, then they hold at most half of the delivery slots", async () => {
    const service = await inProcess({
      ...NEVER_DISABLED,
      WEBHOOK_CONCURRENCY: '2',
      WEBHOOK_RETRY_BASE_MS: '1',
      WEBHOOK_RETRY_MAX_DELAY_MS: '1',
      MONGODB_DB: ownDatabase(),
    });
    services.push(service);
    const [greedy, other] = [await createKeyAt(mongodbUri()), await createKeyAt(mongodbUri())];
    for (const n of [1, 2, 3])
      expect((await addEndpoint(service.url, greedy, `${stuck.url}?endpoint=${n}`)).errors).toBeUndefined();
    expect((await addEndpoint(service.url, other, healthy.url)).errors).toBeUndefined();
    expect((await addItem(service.url, greedy, 'Never answered')).errors).toBeUndefined();
    await eventually(
      () => stuck.received.filter((r) => r.json.data.item.title === 'Never answered').length >= 2,
      20_000,
      'the hanging attempts',
    );

    expect((await addItem(service.url, other, 'Beside hanging endpoints')).errors).toBeUndefined();
    await eventually(() => arrived('Beside hanging endpoints'), 20_000, "the other organization's event");
  }, 60_000);
});
