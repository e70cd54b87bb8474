import { SearchIndexStore } from '@fi/feedback';
import { freePort } from '@fi/cli/embedded';
import type { Connection } from '@fi/shared/database';
import { exportOperations, type ExportJob } from './helpers/exports';
import { eventually, PROCESS_START_MS, spawnEntry, untilReady, type Spawned } from './helpers/processes';
import { ADD_FEEDBACK } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { ADD_ENDPOINT, DELIVERIES, FAST_WEBHOOKS } from './helpers/webhookQueries';

/**
 * The feedback worker is a process of its own (services/feedback/src/worker.ts): killed, it leaves the API
 * answering, and the work left meanwhile (deliveries, indexing, an export) is done once it is back.
 */

// The background work quick, as the tests of each kind set it: the indexer takes items at once.
const SETTINGS = {
  ...FAST_WEBHOOKS,
  EXPORT_POLL_MS: '100',
  SEARCH_INDEX_INTERVAL_MS: '200',
  SEARCH_INDEX_GRACE_MS: '0',
  THEMES_INTERVAL_MS: '0',
};
const FEEDBACK = exportOperations('feedback');
const TOTALS = `query($k: String!, $search: String) {
  all: feedbackItems(apiKey: $k, take: 0) { total }
  found: feedbackItems(apiKey: $k, search: $search) { total items { id } } }`;

let stack: Stack;
let receiver: WebhookReceiver;
let feedback: Connection;
let index: SearchIndexStore;
let database: string;
let workerUrl: string;
let worker: Spawned | null = null;

/** The worker as `npm start` and the image run it: its own process, on the stack's feedback database. */
async function startWorker(): Promise<Spawned> {
  const spawned = spawnEntry('services/feedback/src/worker.ts', {
    ...SETTINGS,
    MONGODB_DB: database,
    PORT: new URL(workerUrl).port,
    LOG_LEVEL: 'warn',
  });
  worker = spawned;
  await untilReady(workerUrl, 'the feedback worker');
  return spawned;
}

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  database = ownDatabaseName('worker');
  workerUrl = `http://127.0.0.1:${await freePort()}`;
  stack = await startStack(SETTINGS, { databases: { feedback: database }, worker: false });
  feedback = await stack.connect('feedback');
  index = new SearchIndexStore(feedback);
}, PROCESS_START_MS);

afterAll(async () => {
  worker?.child.kill('SIGKILL');
  await worker?.exited;
  await stack?.close();
  await receiver?.close();
});

test(
  'when the worker process is killed, then reads and writes through the gateway answer, and what was left meanwhile is delivered, indexed and exported once it is back',
  async () => {
    const { key, orgId } = await stack.createKey();
    const endpoint = await stack.gql<{ addWebhookEndpoint: { id: string } }>(ADD_ENDPOINT, {
      k: key,
      url: receiver.url,
      events: ['feedback.created'],
    });
    expect(endpoint.body.errors).toBeUndefined();
    const endpointId = endpoint.body.data!.addWebhookEndpoint.id;
    const add = async (title: string) => {
      const answer = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
        apiKey: key,
        input: { source: 'api', title, content: 'Checkout fails' },
      });
      expect({ status: answer.status, errors: answer.body.errors }).toEqual({ status: 200, errors: undefined });
      return answer.body.data!.addFeedbackItem.id;
    };
    const delivered = () =>
      receiver.received.filter((r) => r.json.type === 'feedback.created').map((r) => r.json.data.item.id);
    const openChanges = () => feedback.collection('webhook_outbox').countDocuments({ orgId, doneAt: null });
    const deliveryStatuses = async () =>
      (
        await stack.gql<{ webhookDeliveries: { items: Array<{ status: string }> } }>(DELIVERIES, {
          k: key,
          id: endpointId,
        })
      ).body.data?.webhookDeliveries.items.map((item) => item.status) ?? [];

    // With the worker up (started after the organization has feedback: the indexer reads the list of
    // organizations at its start, then once a minute): delivered (and recorded so), indexed, changes closed.
    const before = await add('Before the kill');
    await startWorker();
    await eventually(async () => (await deliveryStatuses()).join() === 'delivered', 30_000, 'the first delivery');
    await eventually(async () => (await index.state(orgId))?.next === 1, 30_000, 'the first item indexed');
    await eventually(async () => (await openChanges()) === 0, 30_000, 'the first change closed');
    // Killed between passes: the indexer records an item before it gives its lease back, and a lease a killed
    // worker held keeps the organization from the next one until it runs out (2 minutes, as designed).
    const leased = async () =>
      (await feedback
        .collection('feedback_search_state')
        .countDocuments({ _id: orgId as never, holder: { $exists: true } })) > 0;
    await eventually(async () => !(await leased()), 30_000, 'the indexing pass over');

    const killed = worker as Spawned;
    killed.child.kill('SIGKILL');
    await killed.exited;

    // Writes and reads answer through the gateway, totals exact and searches found (over the unindexed items).
    const meanwhile = [await add('Written while the worker is down'), await add('Also written meanwhile')];
    const started = await stack.gql<{ job: ExportJob }>(FEEDBACK.start, { k: key });
    expect(started.body.errors).toBeUndefined();
    const jobId = started.body.data!.job.id;
    const totals = await stack.gql(TOTALS, { k: key, search: 'meanwhile' });
    expect(totals.body.data).toEqual({ all: { total: 3 }, found: { total: 1, items: [{ id: meanwhile[1] }] } });

    // The work waits in the database: no worker runs, so nothing of it can have happened.
    expect(await openChanges()).toBe(2);
    expect(delivered()).toEqual([before]);
    expect((await index.state(orgId))?.next).toBe(1);
    const waiting = await stack.gql<{ job: ExportJob }>(FEEDBACK.get, { k: key, id: jobId });
    expect(waiting.body.data?.job.status).toBe('queued');

    await startWorker();
    await eventually(
      () => meanwhile.every((id) => delivered().includes(id)),
      30_000,
      'the events written meanwhile delivered',
    );
    await eventually(async () => (await index.state(orgId))?.next === 3, 30_000, 'the items written meanwhile indexed');
    let job: ExportJob | undefined;
    await eventually(
      async () => {
        job = (await stack.gql<{ job: ExportJob }>(FEEDBACK.get, { k: key, id: jobId })).body.data?.job;
        return job?.status === 'done';
      },
      30_000,
      'the export queued meanwhile done',
    );
    expect(job).toMatchObject({ status: 'done', count: 3 });
    await eventually(async () => (await openChanges()) === 0, 30_000, 'every change closed');
    // Each event once: the worker that came back did not send again what the killed one had delivered.
    expect([...delivered()].sort()).toEqual([before, ...meanwhile].sort());
  },
  2 * PROCESS_START_MS + 180_000,
);

test('when the worker is up, then it answers only its probes and metrics, under its own service name', async () => {
  const running = worker && worker.child.exitCode === null && worker.child.signalCode === null;
  if (!running) await startWorker();
  expect(await (await fetch(`${workerUrl}/health`)).json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${workerUrl}/ready`);
  expect({ status: ready.status, body: await ready.json() }).toMatchObject({
    status: 200,
    body: { ready: true, checks: { database: { ok: true } } },
  });
  const metrics = await (await fetch(`${workerUrl}/metrics`)).text();
  expect(metrics).toMatch(/^fi_webhook_queue_depth\{service="feedback-worker"\} \d+$/m);
  expect(metrics).toMatch(/^fi_mongo_pool_connections\{[^}]*service="feedback-worker"[^}]*\}/m);
  const graphql = await fetch(`${workerUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"query":"{ __typename }"}',
  });
  expect(graphql.status).toBe(405);
  expect((await fetch(`${workerUrl}/graphql`)).status).toBe(404);
  // The API keeps no background work of its own: its metrics have none of the worker's.
  const apiMetrics = await (await fetch(`${stack.subgraphs.feedback.url}/metrics`)).text();
  expect(apiMetrics).not.toContain('fi_webhook_queue_depth');
});
