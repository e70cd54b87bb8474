import { loadFeedbackConfig, startFeedbackService } from '@fi/feedback';
import { createLogger } from '@fi/shared';
import type { RunningSubgraph } from '@fi/shared/database';
import { freePort } from '@fi/cli/embedded';
import { createKeyAt, signedIdentityFor } from './helpers/keys';
import { PrivateDatabase } from './helpers/privateDatabase';
import { PROCESS_START_MS, spawnEntry, untilReady } from './helpers/processes';
import { ADD_FEEDBACK, GET_FEEDBACK } from './helpers/queries';

/** Straight to the feedback service, with the identity the gateway would sign for the request's key. */
async function gql(url: string, query: string, variables: Record<string, unknown>) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedIdentityFor(String(variables.apiKey)) },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: Record<string, { id: string } | null> | null;
      errors?: Array<{ message: string; extensions: { code: string } }>;
    },
  };
}

const input = { source: 'api', title: 'Durable', content: 'Must survive restarts' };

describe('the database goes away', () => {
  let database: PrivateDatabase;
  let service: RunningSubgraph;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
    service = await startFeedbackService(
      loadFeedbackConfig({
        MONGODB_URI: database.uri,
        PORT: '0',
        MONGODB_TIMEOUT_MS: '1000',
        WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
        IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
      }),
      createLogger('feedback', 'silent'),
    );
  });
  afterAll(async () => {
    await service.close(1_000);
    await database.destroy();
  });

  test('when it stops, then requests fail fast with SERVICE_UNAVAILABLE and /ready says why; when it returns, all recovers', async () => {
    const key = await createKeyAt(database.uri);
    const created = await gql(service.url, ADD_FEEDBACK, { apiKey: key, input });
    const id = created.body.data!.addFeedbackItem!.id;

    await database.stop();
    const started = Date.now();
    const down = await gql(service.url, GET_FEEDBACK, { apiKey: key, id });
    expect(down.body.errors?.[0]).toEqual(
      expect.objectContaining({
        message: 'Service temporarily unavailable; retry shortly',
        extensions: { code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) },
      }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const ready = await fetch(`${service.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready', checks: { database: { ok: false } } });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);

    await database.restart();
    await untilReady(service.url, 'readiness after the database returned');
    const back = await gql(service.url, GET_FEEDBACK, { apiKey: key, id });
    expect(back.body.data?.feedbackItem?.id).toBe(id);
  });
});

describe('durability', () => {
  let database: PrivateDatabase;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
  });
  afterAll(() => database.destroy());

  test(
    'when the service and the database are killed with SIGKILL after an acknowledged write, then the item is still there',
    async () => {
      const key = await createKeyAt(database.uri);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = { MONGODB_URI: database.uri, PORT: String(port) };

      const first = spawnEntry('services/feedback/src/main.ts', env);
      let id: string;
      try {
        await untilReady(url, 'the feedback service');
        const created = await gql(url, ADD_FEEDBACK, { apiKey: key, input });
        id = created.body.data!.addFeedbackItem!.id;
      } finally {
        first.child.kill('SIGKILL');
        await first.exited;
      }
      await database.stop('SIGKILL');
      await database.restart();

      const second = spawnEntry('services/feedback/src/main.ts', env);
      try {
        await untilReady(url, 'the restarted feedback service');
        const read = await gql(url, GET_FEEDBACK, { apiKey: key, id });
        expect(read.body.data?.feedbackItem).toMatchObject({ id, title: 'Durable', status: 'unread' });
      } finally {
        second.child.kill('SIGKILL');
        await second.exited;
      }
    },
    2 * PROCESS_START_MS + 60_000,
  );
});
