import { loadFeedbackConfig, startFeedbackService } from '@fi/feedback';
import { loadGatewayConfig, startGateway } from '@fi/gateway';
import { createLogger } from '@fi/shared';
import { freePort } from '@fi/cli/embedded';
import { loadIdentityConfig, startIdentityService } from '@fi/identity';
import { createKeyAt, signedIdentityFor } from './helpers/keys';
import { LogSink } from './helpers/logSink';
import { PrivateDatabase } from './helpers/privateDatabase';
import { eventually, spawnEntry, untilReady } from './helpers/processes';

const mongodbUri = () => process.env.MONGODB_URI as string;

describe('configuration', () => {
  test.each<[string, Record<string, string>, RegExp[]]>([
    ['services/feedback/src/main.ts', { PORT: 'eighty' }, [/PORT="eighty" is invalid: expected a whole number/]],
    [
      'services/feedback/src/worker.ts',
      { PORT: 'eighty', WEBHOOK_SECRET_KEY: '' },
      [/PORT="eighty" is invalid: expected a whole number/, /WEBHOOK_SECRET_KEY is required/],
    ],
    [
      'services/contacts/src/main.ts',
      { MONGODB_URI: 'http://wrong' },
      [/MONGODB_URI="http:\/\/wrong" is invalid: expected a mongodb:\/\/ or mongodb\+srv:\/\/ connection string/],
    ],
    [
      'gateway/src/main.ts',
      { IDENTITY_SIGNING_KEYS: '', PORT: '99999' },
      [/IDENTITY_SIGNING_KEYS is required/, /PORT="99999" is invalid: expected a number from 0 to 65535/],
    ],
    [
      'gateway/src/main.ts',
      { IDENTITY_SIGNING_KEYS: 'k1:short' },
      [/IDENTITY_SIGNING_KEYS="k1:short" is invalid: the secret of key "k1" is shorter than 32 characters/],
    ],
  ])('when %s starts with bad settings, then it exits 1 naming each bad variable', async (entry, env, messages) => {
    const service = spawnEntry(entry, { MONGODB_URI: mongodbUri(), ...env });
    expect(await service.exited).toBe(1);
    for (const message of messages) expect(service.output()).toMatch(message);
  });
});

describe('request ids and key redaction in logs', () => {
  test('when a request carries x-request-id, then the gateway and the subgraph log it, and no log line holds the key', async () => {
    const sink = new LogSink();
    const base = {
      MONGODB_URI: mongodbUri(),
      PORT: '0',
      LOG_LEVEL: 'info',
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
      IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
    };
    const feedback = await startFeedbackService(loadFeedbackConfig(base), createLogger('feedback', 'info', sink));
    const identity = await startIdentityService(loadIdentityConfig(base), createLogger('identity', 'info', sink));
    const gateway = await startGateway(
      loadGatewayConfig({ ...base, FEEDBACK_URL: `${feedback.url}/graphql`, IDENTITY_URL: identity.url }),
      createLogger('gateway', 'info', sink),
    );
    try {
      const key = await createKeyAt(mongodbUri());
      const post = (query: string, variables?: unknown) =>
        fetch(`${gateway.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'trace-me-42' },
          body: JSON.stringify({ query, variables }),
        });
      await post(
        'mutation($k: String!) { addFeedbackItem(apiKey: $k, input: { source: "api", title: "t", content: "c" }) { id } }',
        { k: key },
      );
      await post(`{ feedbackItems(apiKey: "${key}", take: 1) { total } }`);
      await post(`{ feedbackItems(apiKey: "${key}x", take: 1) { total } }`);

      const traced = sink.lines().filter((line) => line.requestId === 'trace-me-42');
      expect(new Set(traced.map((line) => line.service))).toEqual(new Set(['gateway', 'feedback']));
      const subgraphRequests = traced.filter((line) => line.service === 'feedback' && line.msg === 'request');
      expect(subgraphRequests.map((line) => [line.operation, line.code])).toEqual(
        expect.arrayContaining([
          ['addFeedbackItem', 'OK'],
          ['feedbackItems', 'OK'],
        ]),
      );
      expect(sink.raw).not.toContain(key);
      expect(sink.raw).not.toContain(key.slice(4));
    } finally {
      await gateway.close(1_000);
      await feedback.close(1_000);
      await identity.close(1_000);
    }
  });
});

describe('graceful shutdown', () => {
  let database: PrivateDatabase;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
  });
  afterAll(() => database.destroy());

  test('when SIGTERM arrives during a slow request, then the request completes and the process exits 0', async () => {
    const key = await createKeyAt(database.uri);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = spawnEntry('services/feedback/src/main.ts', {
      MONGODB_URI: database.uri,
      PORT: String(port),
      SHUTDOWN_TIMEOUT_MS: '20000',
      // The database is frozen on purpose while the request is in flight: the service must not take it
      // for a dead database (within MONGODB_TIMEOUT_MS) before the test thaws it.
      MONGODB_TIMEOUT_MS: '8000',
    });
    try {
      await untilReady(url, 'the feedback service');
      const query = JSON.stringify({ query: `{ feedbackItems(apiKey: "${key}") { total } }` });
      const headers = { 'content-type': 'application/json', ...signedIdentityFor(key) };
      const post = () => fetch(`${url}/graphql`, { method: 'POST', headers, body: query });
      expect((await post()).status).toBe(200);

      // Freezing the database makes the next request hang until it is thawed.
      database.process.kill('SIGSTOP');
      const inFlight = post();
      // States, not sleeps: the request holds a database connection, so it has arrived and waits...
      await eventually(
        async () =>
          /fi_mongo_pool_connections\{[^}]*state="in_use"[^}]*\} [1-9]/.test(
            await (await fetch(`${url}/metrics`)).text(),
          ),
        30_000,
        'the request to reach the database',
      );
      service.child.kill('SIGTERM');
      // ...and after SIGTERM the service refuses new connections but stays up for the request in flight.
      await eventually(
        async () =>
          !(await fetch(`${url}/health`).then(
            () => true,
            () => false,
          )),
        30_000,
        'the service to stop accepting connections',
      );
      expect(service.child.exitCode).toBeNull();
      database.process.kill('SIGCONT');

      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { feedbackItems: { total: 0 } } });
      expect(await service.exited).toBe(0);
    } finally {
      database.process.kill('SIGCONT');
      service.child.kill('SIGKILL');
    }
  });
});
