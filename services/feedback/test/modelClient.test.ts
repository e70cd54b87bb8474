import { Registry } from 'prom-client';
import { ModelServer } from '../../../test/helpers/modelServer';
import { createAiMetrics, ModelClient, ModelUnavailable, type TokenBudget } from '../src/ai';

const SENTIMENT_REPLY = {
  name: 'sentiment',
  schema: { type: 'object', properties: { sentiment: { type: 'string' } }, required: ['sentiment'] },
  maxTokens: 20,
};

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(() => server.close());
beforeEach(() => {
  server.heal();
  server.requests.length = 0;
});

/** A budget in memory that records what was reserved and settled. */
function recordingBudget(limit = Infinity) {
  let used = 0;
  const budget: TokenBudget & { used: () => number } = {
    reserve: (_orgId, tokens) => {
      if (used + tokens > limit) return Promise.resolve(false);
      used += tokens;
      return Promise.resolve(true);
    },
    settle: (_orgId, reserved, spent) => {
      used += spent - reserved;
      return Promise.resolve();
    },
    used: () => used,
  };
  return budget;
}

function clientOf(options: { timeoutMs?: number; budget?: TokenBudget; batch?: number } = {}) {
  const waits: number[] = [];
  const registry = new Registry();
  const client = new ModelClient({
    baseUrl: server.url,
    apiKey: 'test-key',
    timeoutMs: options.timeoutMs ?? 5_000,
    embeddingBatch: options.batch ?? 2,
    budget: options.budget ?? recordingBudget(),
    metrics: createAiMetrics(registry),
    backoffMs: 1,
    // The waits are recorded, not slept: what the client waits is what the test reads.
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
  return { client, waits, registry };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ModelUnavailable);
      return error as ModelUnavailable;
    },
  );

describe('the model client against the test model server', () => {
  test('when texts are embedded, then they go in batches with the key as a bearer token and come back in order', async () => {
    const { client } = clientOf({ batch: 2 });
    const vectors = await client.embed('org', 'embed-1', ['one text', 'another text', 'a third']);
    expect(vectors).toHaveLength(3);
    expect(server.requestsTo('embeddings').map((request) => (request.body.input as string[]).length)).toEqual([2, 1]);
    expect(server.requests[0].authorization).toBe('Bearer test-key');
    expect(server.requests[0].body.model).toBe('embed-1');
  });

  test('when the server answers 429 with Retry-After, then the client waits that long and tries again', async () => {
    server.fail([{ kind: 'rate-limited', retryAfterSeconds: 2 }]);
    const { client, waits } = clientOf();
    const reply = await client.chatJson('org', 'chat-1', [{ role: 'user', content: 'It is broken' }], SENTIMENT_REPLY);
    expect(reply).toEqual({ sentiment: 'negative' });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(1_900);
    expect(waits[0]).toBeLessThanOrEqual(2_000);
    expect(server.requestsTo('chat/completions')).toHaveLength(2);
  });

  test('when Retry-After is longer than the time limit, then the call fails at once and the next ones wait for it', async () => {
    server.fail([{ kind: 'rate-limited', retryAfterSeconds: 60 }]);
    const { client, waits } = clientOf({ timeoutMs: 1_000 });
    expect((await failureOf(client.embed('org', 'embed-1', ['text']))).reason).toBe('rate-limited');
    expect((await failureOf(client.embed('org', 'embed-1', ['text']))).reason).toBe('rate-limited');
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  test('when the server answers 500 every time, then the client gives up after three tries', async () => {
    server.fail([], { always: { kind: 'server-error' } });
    const { client, registry } = clientOf();
    expect((await failureOf(client.embed('org', 'embed-1', ['text']))).reason).toBe('server');
    expect(server.requests).toHaveLength(3);
    const metrics = await registry.getMetricsAsJSON();
    const failures = metrics.find((metric) => metric.name === 'fi_ai_failures_total')!.values;
    expect(failures).toEqual([
      expect.objectContaining({ value: 3, labels: { model: 'embed-1', operation: 'embeddings', reason: 'server' } }),
    ]);
  });

  test('when the server hangs, then the call fails with a timeout after the time limit and is not tried again', async () => {
    server.fail([{ kind: 'hang' }]);
    const { client } = clientOf({ timeoutMs: 300 });
    const started = Date.now();
    expect((await failureOf(client.embed('org', 'embed-1', ['text']))).reason).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(server.requests).toHaveLength(1);
  });

  test('when the reply is not JSON, then the call fails as malformed without another try', async () => {
    server.fail([{ kind: 'malformed' }]);
    const { client } = clientOf();
    const error = await failureOf(client.chatJson('org', 'chat-1', [{ role: 'user', content: 'x' }], SENTIMENT_REPLY));
    expect(error.reason).toBe('malformed');
    expect(server.requests).toHaveLength(1);
  });

  test("when the budget is spent, then nothing is sent; otherwise the server's usage is what is counted", async () => {
    const budget = recordingBudget(1_000);
    const { client } = clientOf({ budget });
    await client.embed('org', 'embed-1', ['four words are here']);
    expect(budget.used()).toBe(4);
    const spent = clientOf({ budget: recordingBudget(1) }).client;
    expect((await failureOf(spent.embed('org', 'embed-1', ['text']))).reason).toBe('budget');
    expect(server.requests).toHaveLength(1);
  });
});
