import { loadFeedbackConfig, startFeedbackService } from '@fi/feedback';
import { createLogger } from '@fi/shared';
import type { RunningSubgraph } from '@fi/shared/database';
import { createKeyAt, signedIdentityFor } from './helpers/keys';
import { PrivateDatabase } from './helpers/privateDatabase';
import { eventually } from './helpers/processes';
import { StallingProxy } from './helpers/stallingProxy';

/**
 * SERVICE_UNAVAILABLE is the database's fault, QUERY_TIMEOUT the request's: a database that stops
 * answering is reported as unavailable within MONGODB_TIMEOUT_MS, not as a query that asked too much.
 */

const TIMEOUT_MS = 2_000;
const LIST = '{ feedbackItems(apiKey: "KEY") { total } }';

async function list(url: string, key: string) {
  const started = performance.now();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedIdentityFor(key) },
    body: JSON.stringify({ query: LIST.replace('KEY', key) }),
  });
  const body = (await response.json()) as {
    data?: unknown;
    errors?: Array<{ message: string; extensions: { code: string } }>;
  };
  return { body, ms: performance.now() - started };
}

function startService(uri: string, settings: Record<string, string> = {}): Promise<RunningSubgraph> {
  return startFeedbackService(
    loadFeedbackConfig({
      MONGODB_URI: uri,
      PORT: '0',
      MONGODB_TIMEOUT_MS: String(TIMEOUT_MS),
      MONGODB_MAX_TIME_MS: '8000',
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
      IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
      ...settings,
    }),
    createLogger('feedback', 'silent'),
  );
}

describe('the database freezes', () => {
  let database: PrivateDatabase;
  let service: RunningSubgraph;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
    service = await startService(database.uri);
  });
  afterAll(async () => {
    database.process.kill('SIGCONT');
    await service?.close(1_000);
    await database.destroy();
  });

  test('when it stops answering, then requests get SERVICE_UNAVAILABLE well before MONGODB_MAX_TIME_MS; when it answers again, all recovers', async () => {
    const key = await createKeyAt(database.uri);
    expect((await list(service.url, key)).body.errors).toBeUndefined();

    database.process.kill('SIGSTOP');
    try {
      const frozen = await list(service.url, key);
      expect(frozen.body.errors?.[0]).toMatchObject({
        message: 'Service temporarily unavailable; retry shortly',
        extensions: { code: 'SERVICE_UNAVAILABLE' },
      });
      // Noticed within MONGODB_TIMEOUT_MS (plus the machine's slack), far from the 8 s a stopped query would take.
      expect(frozen.ms).toBeLessThan(TIMEOUT_MS + 3_000);
    } finally {
      database.process.kill('SIGCONT');
    }
    await eventually(
      async () => (await list(service.url, key)).body.errors === undefined,
      30_000,
      'the service to read again',
    );
  });
});

describe('every pooled connection is busy', () => {
  /** The driver's pool (shared/src/data/mongo.ts): the bulkheads are opened wide so requests alone can drain it. */
  const POOL_SIZE = 20;
  let database: PrivateDatabase;
  let proxy: StallingProxy;
  let service: RunningSubgraph;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
    proxy = await StallingProxy.start(database.port);
    service = await startService(proxy.uri, { DB_CONCURRENCY: '100', ORG_CONCURRENCY: '100', ORG_QUEUE: '100' });
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.close(1_000);
    await database.destroy();
  });

  test('when a request finds no free connection, then it gets SERVICE_UNAVAILABLE within MONGODB_TIMEOUT_MS, not QUERY_TIMEOUT after MONGODB_MAX_TIME_MS; once the work drains, all recovers', async () => {
    const key = await createKeyAt(database.uri);
    expect((await list(service.url, key)).body.errors).toBeUndefined();

    proxy.stall();
    // Slow work (held by the proxy; the server still answers its monitors) takes every connection.
    const busy = Array.from({ length: POOL_SIZE }, () => list(service.url, key));
    try {
      await eventually(async () => proxy.heldCount >= POOL_SIZE, 30_000, 'every pooled connection to be busy');
      const starved = await list(service.url, key);
      expect(starved.body.errors?.[0]).toMatchObject({
        message: 'Service temporarily unavailable; retry shortly',
        extensions: { code: 'SERVICE_UNAVAILABLE' },
      });
      // Refused once MONGODB_TIMEOUT_MS passed without a connection (plus the machine's slack), far from the 8 s of a stopped query.
      expect(starved.ms).toBeLessThan(TIMEOUT_MS + 3_000);
    } finally {
      proxy.release();
    }
    await Promise.all(busy);
    await eventually(
      async () => (await list(service.url, key)).body.errors === undefined,
      30_000,
      'the service to read again',
    );
  });
});
