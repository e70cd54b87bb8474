import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadGatewayConfig, startGateway } from '@fi/gateway';
import { createLogger, type RunningHttpServer } from '@fi/shared';
import { freePort } from '@fi/cli/embedded';
import { PrivateDatabase } from './helpers/privateDatabase';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';

/**
 * Faults the gateway meets: a subgraph that is down or hangs, a database that goes away. Each ends in
 * a documented answer, the parts that still work keep working, and nothing hangs.
 */

const MIXED = `query($k: String!) {
  feedbackItems(apiKey: $k, take: 0) { total }
  accountItem(apiKey: $k, id: "000000000000000000000000") { name }
  contactItem(apiKey: $k, id: "000000000000000000000000") { name }
}`;

describe('a subgraph that is down or hangs', () => {
  let stack: Stack;
  let gateway: RunningHttpServer;
  let hanging: http.Server;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    stack = await startStack();
    // Accepts connections and never answers, like a subgraph stuck on a dead database.
    hanging = http.createServer((_req, res) => held.push(res));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway(
      loadGatewayConfig({
        MONGODB_URI: stack.mongodbUri,
        PORT: '0',
        // Long enough for the working subgraph on a loaded machine, short enough to wait for the hanging one.
        SUBGRAPH_TIMEOUT_MS: '4000',
        MONGODB_MAX_TIME_MS: '3000',
        ...stack.identityEnv,
        FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
        CONTACTS_URL: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/graphql`,
        // Nothing listens here.
        ACCOUNTS_URL: `http://127.0.0.1:${await freePort()}/graphql`,
      }),
      createLogger('gateway', 'silent'),
    );
  });
  afterAll(async () => {
    await gateway.close(1_000);
    for (const res of held) res.destroy();
    await new Promise((resolve) => hanging.close(resolve));
    await stack.close();
  });

  const post = (query: string, variables: Record<string, unknown>) =>
    stack.gql<Record<string, unknown>>(query, variables, { url: `${gateway.url}/graphql` });

  test('when other subgraphs fail, then the working one still answers and each failing part says its service is unavailable', async () => {
    const { key } = await stack.createKey();
    const started = Date.now();
    const response = await post(MIXED, { k: key });
    // The hanging subgraph is given up on after SUBGRAPH_TIMEOUT_MS; nothing waits longer than that.
    expect(Date.now() - started).toBeLessThan(4_000 + 10_000);

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ feedbackItems: { total: 0 }, accountItem: null, contactItem: null });
    const errors = response.body.errors ?? [];
    expect(errors).toHaveLength(2);
    expect(errors).toContainEqual(
      expect.objectContaining({
        message: 'The accounts service is unavailable; retry shortly',
        extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', service: 'accounts', retryAfter: 5 }),
      }),
    );
    expect(errors).toContainEqual(
      expect.objectContaining({
        message: 'The contacts service did not answer in time; retry shortly',
        extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', service: 'contacts' }),
      }),
    );
  });

  test.each([
    ['a non-null field', 'query($k: String!) { accountItems(apiKey: $k) { total } }', null],
    [
      'nullable fields',
      'query($k: String!) { accountItem(apiKey: $k, id: "000000000000000000000000") { name } c: contactItem(apiKey: $k, id: "000000000000000000000000") { name } }',
      { accountItem: null, c: null },
    ],
  ])('when the whole request depends on failing subgraphs (%s), then 503 with Retry-After', async (_, query, data) => {
    const { key } = await stack.createKey();
    const response = await post(query, { k: key });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body.data ?? null).toEqual(data);
    expect(response.body.errors?.[0].extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      requestId: response.headers.get('x-request-id'),
    });
  });

  test('when readiness is asked, then the gateway names the subgraphs it cannot reach', async () => {
    const ready = await fetch(`${gateway.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'not ready',
      checks: {
        'subgraph:feedback': { ok: true },
        'subgraph:accounts': { ok: false },
        'subgraph:contacts': { ok: false },
        identity: { ok: true },
      },
    });
  });
});

describe('the database goes away behind the gateway', () => {
  let database: PrivateDatabase;
  let stack: Stack;
  beforeAll(async () => {
    database = await PrivateDatabase.start();
    // Keys stay cached, so the gateway lets the request through and the subgraph meets the outage.
    stack = await startStack({ MONGODB_URI: database.uri, MONGODB_TIMEOUT_MS: '1000', AUTH_CACHE_TTL_MS: '600000' });
  });
  afterAll(async () => {
    await stack.close();
    await database.destroy();
  });

  test('when it stops, then 503 with Retry-After and SERVICE_UNAVAILABLE, the gateway stays up; when it returns, all recovers', async () => {
    const { key } = await stack.createKey();
    const query = 'query($k: String!) { feedbackItems(apiKey: $k, take: 1) { total } }';
    expect((await stack.gql(query, { k: key })).status).toBe(200);

    await database.stop();
    const started = Date.now();
    const down = await stack.gql(query, { k: key });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(down.body.errors?.[0]).toMatchObject({
      message: 'Service temporarily unavailable; retry shortly',
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
    expect((await fetch(`${stack.gateway.url}/ready`)).status).toBe(503);
    expect((await fetch(`${stack.gateway.url}/health`)).status).toBe(200);

    // A key the gateway has not seen must be checked against the store, which is down too.
    const unknown = await stack.gql(query, { k: 'fik_not_cached_anywhere_0000000000' });
    expect(unknown.status).toBe(503);
    expect(unknown.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');

    await database.restart();
    await eventually(
      async () => (await stack.gql(query, { k: key })).status === 200,
      30_000,
      'answers after the database returned',
    );
  });
});
