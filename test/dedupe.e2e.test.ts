import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/** Concurrent identical queries share one execution; every request is still counted and answered. */

let stack: Stack;
beforeAll(async () => {
  // On a slow machine the figures must stay exact: a day-long window no request can straddle (and the
  // test stack gives Redis time to answer).
  stack = await startStack({ RATE_LIMIT_WINDOW_SECONDS: '86400' });
});
afterAll(() => stack.close());

const LIST = 'query($k: String!) { feedbackItems(apiKey: $k, take: 5) { total items { id title } } }';

async function subgraphListCalls(): Promise<number> {
  const text = await (await fetch(`${stack.subgraphs.feedback.url}/metrics`)).text();
  return Number(
    /^fi_subgraph_request_duration_seconds_count\{[^}]*operation="feedbackItems"[^}]*\} (\S+)$/m.exec(text)?.[1] ?? 0,
  );
}

test('when 20 identical queries arrive together, then fewer executions reach the subgraph, and each request gets its own rate-limit figures', async () => {
  const { key } = await stack.createKey({ tier: 'pro' });
  await stack.gql(ADD_FEEDBACK, {
    apiKey: key,
    input: { source: 'api', title: 'Shared', content: 'One execution for many' },
  });
  const before = await subgraphListCalls();

  const responses = await Promise.all(Array.from({ length: 20 }, () => stack.gql(LIST, { k: key })));

  const calls = (await subgraphListCalls()) - before;
  expect(calls).toBeGreaterThanOrEqual(1);
  expect(calls).toBeLessThan(20);
  for (const response of responses) expect(response.body.data).toEqual(responses[0].body.data);
  const remaining = responses
    .map((response) => (response.body.extensions?.rateLimit as { remaining: number }).remaining)
    .sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => 279 + i));
});

test("when identical queries use different keys, then each key gets its own organization's answer", async () => {
  const a = await stack.createKey();
  const b = await stack.createKey();
  await stack.gql(ADD_FEEDBACK, { apiKey: a.key, input: { source: 'api', title: 'Only A', content: 'Belongs to A' } });
  const [forA, forB] = await Promise.all([stack.gql(LIST, { k: a.key }), stack.gql(LIST, { k: b.key })]);
  expect(forA.body.data).toMatchObject({ feedbackItems: { total: 1 } });
  expect(forB.body.data).toMatchObject({ feedbackItems: { total: 0 } });
});

test('when identical mutations arrive together, then every one runs', async () => {
  const { key } = await stack.createKey();
  const input = { source: 'api', title: 'Twice', content: 'Both must be stored' };
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, { apiKey: key, input }),
    ),
  );
  expect(new Set(results.map((result) => result.body.data?.addFeedbackItem.id)).size).toBe(5);
});
