import Redis from 'ioredis';
import { LiveInstances } from '@fi/gateway';
import { freePort } from '@fi/cli/embedded';
import { eventually, spawnEntry, type Spawned, untilReady } from './helpers/processes';
import { PrivateRedis } from './helpers/privateRedis';
import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type GraphQLResponse, type Stack } from './helpers/stack';

/**
 * Per-key rate limits at the gateway, counted in the Redis these machines run at 127.0.0.1:6379
 * (the jest global setup sets REDIS_URL), a private redis-server where a test stops Redis, or in
 * process when no Redis is configured.
 */

const COUNT_QUERY = 'query($k: String!) { feedbackItems(apiKey: $k, take: 0) { total } }';

type Result = GraphQLResponse<{ feedbackItems: { total: number } }>;

async function burst(stack: Stack, apiKey: string, count: number, url?: string): Promise<Result[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      stack.gql<{ feedbackItems: { total: number } }>(COUNT_QUERY, { k: apiKey }, { url }),
    ),
  );
}

/** Sends `count` requests, at most `concurrency` at a time. */
async function steady(stack: Stack, apiKey: string, count: number, concurrency = 50): Promise<Result[]> {
  const results: Result[] = [];
  for (let sent = 0; sent < count; sent += concurrency)
    results.push(...(await burst(stack, apiKey, Math.min(concurrency, count - sent))));
  return results;
}

const succeeded = (results: Result[]) => results.filter((result) => result.status === 200 && !result.body.errors);
const limited = (results: Result[]) =>
  results.filter((result) => result.body.errors?.[0]?.extensions?.code === 'RATE_LIMITED');

describe('per-key limits, counted in Redis', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  test('when a free key sends 100 requests at once, then exactly 60 pass and 40 get 429 RATE_LIMITED; another key is unaffected', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const { key: other } = await stack.createKey({ tier: 'free' });

    const [results, otherResults] = await Promise.all([burst(stack, key, 100), burst(stack, other, 10)]);

    expect(succeeded(results)).toHaveLength(60);
    const refused = limited(results);
    expect(refused).toHaveLength(40);
    for (const response of refused) {
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      const error = response.body.errors![0];
      expect(error.message).toMatch(/^Rate limit exceeded: 60 requests per 60 s for this API key; retry in \d+ s$/);
      expect(error.extensions).toMatchObject({
        code: 'RATE_LIMITED',
        retryAfter: Number(response.headers.get('retry-after')),
      });
      expect(response.body.data ?? null).toBeNull();
    }
    expect(succeeded(otherResults)).toHaveLength(10);
  });

  test('when a pro key sends 310 requests, then exactly 300 pass', async () => {
    const { key } = await stack.createKey({ tier: 'pro' });
    const results = await steady(stack, key, 310);
    expect(succeeded(results)).toHaveLength(300);
    expect(limited(results)).toHaveLength(10);
  });

  test('when an enterprise key sends 1,000 requests, then all pass, each says it is unlimited, and all are still counted', async () => {
    const { key, id } = await stack.createKey({ tier: 'enterprise' });
    const results = await steady(stack, key, 1_000);
    expect(succeeded(results)).toHaveLength(1_000);
    expect(results[999].body.extensions?.rateLimit).toEqual({ tier: 'enterprise', unlimited: true });
    expect(results[999].headers.get('ratelimit')).toBeNull();
    const redis = new Redis(process.env.REDIS_URL as string);
    try {
      await eventually(
        async () => (await redis.get(`${stack.redisPrefix}:key:${id}`)) === '1000',
        5_000,
        'the count of the unlimited key',
      );
    } finally {
      redis.disconnect();
    }
  });

  test('when a key has its own limit, then that limit replaces its tier', async () => {
    const { key } = await stack.createKey({ tier: 'free', rateLimitPerMinute: 75 });
    const results = await burst(stack, key, 80);
    expect(succeeded(results)).toHaveLength(75);
    expect(limited(results)[0].body.errors![0].message).toMatch(/75 requests per 60 s/);
  });

  test('when requests pass, then RateLimit headers and extensions.rateLimit count down consistently', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    for (const expectedRemaining of [59, 58, 57]) {
      const response = await stack.gql(COUNT_QUERY, { k: key });
      expect(response.headers.get('ratelimit-policy')).toBe('60;w=60');
      const header = response.headers.get('ratelimit') ?? '';
      const [, limit, remaining, reset] = /^limit=(\d+), remaining=(\d+), reset=(\d+)$/.exec(header) ?? [];
      expect(Number(limit)).toBe(60);
      expect(Number(remaining)).toBe(expectedRemaining);
      expect(Number(reset)).toBeGreaterThanOrEqual(1);
      expect(Number(reset)).toBeLessThanOrEqual(60);
      expect(response.body.extensions?.rateLimit).toEqual({
        tier: 'free',
        limit: 60,
        remaining: expectedRemaining,
        reset: Number(reset),
        window: 60,
      });
    }
  });

  test('when one request uses two keys, then each key is charged once and the closer to its limit is reported', async () => {
    const { key: free } = await stack.createKey({ tier: 'free' });
    const { key: pro } = await stack.createKey({ tier: 'pro' });
    const query =
      'query($a: String!, $b: String!) { a: feedbackItems(apiKey: $a, take: 0) { total } b: contactItems(apiKey: $b, take: 0) { total } c: accountItems(apiKey: $a, take: 0) { total } }';
    const response = await stack.gql(query, { a: free, b: pro });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.extensions?.rateLimit).toMatchObject({ tier: 'free', remaining: 59 });
    const proNext = await stack.gql(COUNT_QUERY, { k: pro });
    expect(proNext.body.extensions?.rateLimit).toMatchObject({ tier: 'pro', remaining: 298 });
  });

  test('when a key is over its limit, then a mutation is refused before any subgraph: nothing is written', async () => {
    const { key } = await stack.createKey({ tier: 'free', rateLimitPerMinute: 2 });
    const input = { source: 'api', title: 'Limited', content: 'Should not be stored past the limit' };
    const results = await Promise.all(Array.from({ length: 5 }, () => stack.gql(ADD_FEEDBACK, { apiKey: key, input })));
    expect(results.filter((result) => result.status === 200)).toHaveLength(2);
    const feedback = await stack.connect('feedback');
    const stored = await feedback
      .collection('feedback_items')
      .countDocuments({ title: 'Limited', content: 'Should not be stored past the limit' });
    expect(stored).toBe(2);
  });
});

describe('invalid keys', () => {
  let stack: Stack;
  beforeAll(async () => {
    // A blocked address is served only with keys the gateway's key cache vouches for (no key-store read).
    stack = await startStack({ INVALID_KEY_LIMIT: '5', AUTH_CACHE_TTL_MS: '60000' });
  });
  afterAll(() => stack.close());

  test('when invalid keys are sent, then they use no real key budget, and an address over the guard limit gets 429', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const before = await stack.gql(COUNT_QUERY, { k: key });
    expect(before.body.extensions?.rateLimit).toMatchObject({ remaining: 59 });

    const guess = (i: number) => stack.gql(COUNT_QUERY, { k: `${key.slice(0, -4)}zzz${i}` });
    const guesses = [];
    for (let i = 0; i < 4; i += 1) guesses.push(await guess(i));
    const between = await stack.gql(COUNT_QUERY, { k: key });
    expect(between.body.extensions?.rateLimit).toMatchObject({ remaining: 58 });
    guesses.push(await guess(4));
    expect(guesses.map((response) => response.body.errors?.[0]?.extensions?.code)).toEqual(
      Array(5).fill('UNAUTHENTICATED'),
    );

    const blocked = await stack.gql(COUNT_QUERY, { k: 'fik_another_guess_here' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(blocked.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(
        /^Too many requests with a missing or invalid API key from this address; retry in \d+ s$/,
      ),
      extensions: { code: 'RATE_LIMITED' },
    });
    // A valid key from the same address (another client behind the same NAT) is never refused by the guard.
    const validWhileBlocked = await stack.gql(COUNT_QUERY, { k: key });
    expect(validWhileBlocked.status).toBe(200);
    expect(validWhileBlocked.body.errors).toBeUndefined();
    expect(validWhileBlocked.body.extensions?.rateLimit).toMatchObject({ remaining: 57 });
    expect((await stack.gql(COUNT_QUERY, { k: 'fik_still_guessing' })).status).toBe(429);
  });
});

describe('a short window', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RATE_LIMIT_WINDOW_SECONDS: '2' });
  });
  afterAll(() => stack.close());

  test('when the window ends, then the key may send again', async () => {
    const { key } = await stack.createKey({ tier: 'free', rateLimitPerMinute: 3 });
    const first = await burst(stack, key, 4);
    expect(succeeded(first)).toHaveLength(3);
    const retryAfter = Number(limited(first)[0].headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    await eventually(async () => (await stack.gql(COUNT_QUERY, { k: key })).status === 200, 5_000, 'the next window');
  });
});

describe('without Redis (the embedded default)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ REDIS_URL: '' });
  });
  afterAll(() => stack.close());

  test('when a free key sends 100 requests at once, then exactly 60 pass, counted in process', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const results = await burst(stack, key, 100);
    expect(succeeded(results)).toHaveLength(60);
    expect(limited(results)).toHaveLength(40);
    expect(await (await fetch(`${stack.gateway.url}/health`)).json()).toMatchObject({
      rateLimiter: { store: 'memory' },
    });
  });
});

describe('two gateway processes on one Redis', () => {
  let stack: Stack;
  const gateways: Spawned[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    stack = await startStack();
    const prefix = `fi-test:shared:${Date.now()}`;
    for (let i = 0; i < 2; i += 1) {
      const port = await freePort();
      gateways.push(
        spawnEntry('gateway/src/main.ts', {
          PORT: String(port),
          MONGODB_URI: stack.mongodbUri,
          REDIS_URL: process.env.REDIS_URL,
          // Exact shared counting needs Redis's answer; a loaded machine may take longer than the default.
          REDIS_TIMEOUT_MS: '10000',
          RATE_LIMIT_REDIS_PREFIX: prefix,
          ...stack.identityEnv,
          FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
          CONTACTS_URL: `${stack.subgraphs.contacts.url}/graphql`,
          ACCOUNTS_URL: `${stack.subgraphs.accounts.url}/graphql`,
          INTEGRATIONS_URL: `${stack.subgraphs.integrations.url}/graphql`,
          LOG_LEVEL: 'warn',
        }),
      );
      urls.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(urls.map((url) => untilReady(url, `gateway ${url}`)));
  });

  test('when both run, then each learns from Redis that two instances share the limits, with no GATEWAY_INSTANCES set', async () => {
    const instances = async (url: string) =>
      ((await (await fetch(`${url}/health`)).json()) as { rateLimiter: { instances?: number } }).rateLimiter.instances;
    // The first to start saw only itself; it learns of the second at its next heartbeat (5 s).
    for (const url of urls)
      await eventually(async () => (await instances(url)) === 2, 15_000, `${url} counts 2 instances`);
  });
  afterAll(async () => {
    for (const gateway of gateways) gateway.child.kill('SIGTERM');
    await Promise.all(gateways.map((gateway) => gateway.exited));
    await stack.close();
  });

  test('when 40 + 40 concurrent requests of one free key are split across them, then exactly 60 pass in total', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const results = (await Promise.all(urls.map((url) => burst(stack, key, 40, `${url}/graphql`)))).flat();
    expect(succeeded(results)).toHaveLength(60);
    expect(limited(results)).toHaveLength(20);
  });
});

describe('Redis goes down and comes back', () => {
  let redis: PrivateRedis;
  let stack: Stack;
  const prefix = `fi-test:outage:${Date.now()}`;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    stack = await startStack({ REDIS_URL: redis.url, RATE_LIMIT_REDIS_PREFIX: prefix, REDIS_TIMEOUT_MS: '200' });
  });
  afterAll(async () => {
    await stack.close();
    await redis.stop();
  });

  const health = async () =>
    (await (await fetch(`${stack.gateway.url}/health`)).json()) as {
      rateLimiter: { store: string; instances?: number };
    };
  const insuranceGauge = async () => {
    const text = await (await fetch(`${stack.gateway.url}/metrics`)).text();
    return Number(/^fi_gateway_rate_limiter_insurance_mode\{[^}]*\} (\S+)$/m.exec(text)?.[1]);
  };

  test('when Redis stops, then requests are still answered, limited in process; when it returns, counting goes back to Redis', async () => {
    const { key, id } = await stack.createKey({ tier: 'free', rateLimitPerMinute: 10 });
    const client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    try {
      expect(succeeded(await burst(stack, key, 4))).toHaveLength(4);
      expect(await client.get(`${prefix}:key:${id}`)).toBe('4');
      expect(await health()).toMatchObject({ rateLimiter: { store: 'redis' } });
      // A second gateway registers (as each does every 5 s); this one learns it at its next heartbeat.
      await new LiveInstances({ redis: client, key: `${prefix}:instances`, assumed: 1 }).beat();
      await eventually(
        async () => (await health()).rateLimiter.instances === 2,
        15_000,
        'the gateway counts 2 instances',
      );
    } finally {
      client.disconnect();
    }

    await redis.stop();
    // The insurance limiter holds this instance's share: 10 / 2 instances (the last count Redis gave) = 5 per window.
    const during: Result[] = [];
    for (let i = 0; i < 8; i += 1) during.push(await stack.gql(COUNT_QUERY, { k: key }));
    expect(during.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(await health()).toMatchObject({ rateLimiter: { store: 'insurance' } });
    const ready = await fetch(`${stack.gateway.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'degraded', checks: { redis: { ok: false, optional: true } } });
    expect(await insuranceGauge()).toBe(1);

    await redis.restart();
    const { key: fresh, id: freshId } = await stack.createKey({ tier: 'free' });
    await eventually(
      async () => {
        await stack.gql(COUNT_QUERY, { k: fresh });
        return (await health()).rateLimiter.store === 'redis';
      },
      15_000,
      'rate limits back on Redis',
    );
    // The gateway now finds Redis back by itself (docs/limits.md): the loop's last request may have been
    // counted in process just before; the next one is counted in Redis.
    await stack.gql(COUNT_QUERY, { k: fresh });
    const after = new Redis(redis.url);
    try {
      expect(Number(await after.get(`${prefix}:key:${freshId}`))).toBeGreaterThanOrEqual(1);
    } finally {
      after.disconnect();
    }
    expect(await insuranceGauge()).toBe(0);
  });
});
