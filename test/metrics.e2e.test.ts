import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadGatewayConfig, startGateway } from '@fi/gateway';
import { createLogger, type RunningHttpServer } from '@fi/shared';
import { freePort } from '@fi/cli/embedded';
import { LogSink } from './helpers/logSink';
import { startStack, type Stack } from './helpers/stack';

/** The gateway's and subgraphs' /metrics move with known requests, and never show an API key. */

let stack: Stack;
let gateway: RunningHttpServer;
const logs = new LogSink();
beforeAll(async () => {
  stack = await startStack({}, { logSink: logs });
  gateway = await startGateway(
    loadGatewayConfig({
      MONGODB_URI: stack.mongodbUri,
      PORT: '0',
      AUTH_CACHE_TTL_MS: '0',
      REDIS_URL: process.env.REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: `fi-test:metrics:${Date.now()}`,
      ...stack.identityEnv,
      FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
      CONTACTS_URL: `${stack.subgraphs.contacts.url}/graphql`,
      // Nothing listens here: every accounts call fails.
      ACCOUNTS_URL: `http://127.0.0.1:${await freePort()}/graphql`,
    }),
    createLogger('gateway', 'info', logs),
  );
});
afterAll(async () => {
  await gateway.close(1_000);
  await stack.close();
});

/** The value of one series, or 0 when it does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return 0;
}

const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();
const post = (query: string, variables: Record<string, unknown>) =>
  stack.gql(query, variables, { url: `${gateway.url}/graphql` });

test('when known requests pass, fail and are refused, then the gateway counters move by exactly those, and no key shows anywhere', async () => {
  const { key: free } = await stack.createKey({ tier: 'free', rateLimitPerMinute: 1 });
  const { key: enterprise } = await stack.createKey({ tier: 'enterprise' });
  const feedback = 'query($k: String!) { feedbackItems(apiKey: $k, take: 0) { total } }';
  const before = await scrape(gateway.url);

  expect((await post(feedback, { k: free })).status).toBe(200);
  expect((await post(feedback, { k: free })).status).toBe(429);
  expect((await post(feedback, { k: `${free}x` })).body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  expect((await post('query($k: String!) { accountItems(apiKey: $k) { total } }', { k: enterprise })).status).toBe(503);

  const after = await scrape(gateway.url);
  const delta = (name: string, labels: Record<string, string> = {}) =>
    sample(after, name, labels) - sample(before, name, labels);
  expect(delta('fi_gateway_requests_total', { operation: 'feedbackItems', code: 'OK' })).toBe(1);
  expect(delta('fi_gateway_requests_total', { operation: 'feedbackItems', code: 'RATE_LIMITED' })).toBe(1);
  expect(delta('fi_gateway_requests_total', { operation: 'feedbackItems', code: 'UNAUTHENTICATED' })).toBe(1);
  expect(delta('fi_gateway_requests_total', { operation: 'accountItems', code: 'SERVICE_UNAVAILABLE' })).toBe(1);
  expect(delta('fi_gateway_request_duration_seconds_count', { operation: 'feedbackItems' })).toBe(3);
  expect(delta('fi_gateway_rate_limited_total', { tier: 'free' })).toBe(1);
  expect(delta('fi_gateway_auth_failures_total')).toBe(1);
  expect(delta('fi_gateway_subgraph_errors_total', { subgraph: 'accounts', kind: 'unreachable' })).toBe(1);
  expect(delta('fi_gateway_subgraph_fetch_duration_seconds_count', { subgraph: 'feedback' })).toBe(1);
  expect(sample(after, 'fi_gateway_rate_limiter_insurance_mode')).toBe(0);

  const subgraphMetrics = await scrape(stack.subgraphs.feedback.url);
  expect(
    sample(subgraphMetrics, 'fi_subgraph_request_duration_seconds_count', { operation: 'feedbackItems' }),
  ).toBeGreaterThanOrEqual(1);
  expect(sample(subgraphMetrics, 'fi_mongo_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);

  for (const text of [after, subgraphMetrics, logs.raw]) {
    for (const key of [free, enterprise]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(4));
    }
  }
});

test('when a subgraph answers with an internal error, then the gateway counts it for that subgraph', async () => {
  const { key, orgId } = await stack.createKey();
  const database = await stack.connect('feedback');
  await database.collection('feedback_items').insertOne({
    orgId,
    source: 'api',
    title: 't',
    content: 'c',
    status: 'unread',
    publishedDate: 'bad',
    createdAt: new Date(),
  });
  const before = await scrape(gateway.url);
  const response = await post('query($k: String!) { feedbackItems(apiKey: $k) { items { publishedDate } } }', {
    k: key,
  });
  expect(response.body.errors?.[0].extensions?.code).toBe('INTERNAL_SERVER_ERROR');
  const after = await scrape(gateway.url);
  const errors = (text: string) =>
    sample(text, 'fi_gateway_subgraph_errors_total', { subgraph: 'feedback', kind: 'internal_server_error' });
  expect(errors(after) - errors(before)).toBe(1);
});

test('when a subgraph answers 200 with something that is not GraphQL, then the service is unavailable and the failure is counted', async () => {
  const garbage = http.createServer((_req, res) => res.end('<html>maintenance</html>'));
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  const broken = await startGateway(
    loadGatewayConfig({
      MONGODB_URI: stack.mongodbUri,
      PORT: '0',
      ...stack.identityEnv,
      FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
      CONTACTS_URL: `${stack.subgraphs.contacts.url}/graphql`,
      ACCOUNTS_URL: `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/graphql`,
    }),
    createLogger('gateway', 'silent'),
  );
  try {
    const { key } = await stack.createKey();
    const response = await stack.gql(
      'query($k: String!) { accountItems(apiKey: $k) { total } }',
      { k: key },
      { url: `${broken.url}/graphql` },
    );
    expect(response.status).toBe(503);
    expect(response.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(
      sample(await scrape(broken.url), 'fi_gateway_subgraph_errors_total', { subgraph: 'accounts', kind: 'http' }),
    ).toBe(1);
  } finally {
    await broken.close(1_000);
    await new Promise((resolve) => garbage.close(resolve));
  }
});
