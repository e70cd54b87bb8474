import { startStack, type GraphQLResponse, type Stack } from './helpers/stack';

/** Each request pays for what it asks, in points of a per-key budget beside the request budget. */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const COUNT = 'query($k: String!) { feedbackItems(apiKey: $k, take: 0) { total } }';
const addMany = (count: number) =>
  `mutation($k: String!) { ${Array.from({ length: count }, (_, i) => `a${i}: addFeedbackItem(apiKey: $k, input: { source: "api", title: "Aliased", content: "write ${i}" }) { id }`).join(' ')} }`;

describe('extensions.cost', () => {
  test('when a free key reads a page, then the response states the cost, the points left and the restore rate', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const first = await stack.gql(COUNT, { k: key });
    expect(first.body.extensions?.cost).toEqual({
      requested: 2,
      limit: 600,
      remaining: 598,
      restoreRate: 10,
      reset: expect.any(Number),
      window: 60,
    });
    const second = await stack.gql(COUNT, { k: key });
    expect(second.body.extensions?.cost).toMatchObject({ requested: 2, remaining: 596 });
    // The request budget is unchanged beside it.
    expect(second.body.extensions?.rateLimit).toMatchObject({ limit: 60, remaining: 58 });
  });

  test('when an enterprise key asks, then the cost is stated and the budget is unlimited', async () => {
    const { key } = await stack.createKey({ tier: 'enterprise' });
    const response = await stack.gql(
      'query($k: String!) { feedbackItems(apiKey: $k, take: 30) { items { id contact { name } } } }',
      { k: key },
    );
    expect(response.body.extensions?.cost).toEqual({ requested: 32, unlimited: true });
  });

  test('when a request has no key, then it still states its cost', async () => {
    const response = await stack.gql('{ __typename }');
    expect(response.body.extensions?.cost).toEqual({ requested: 0 });
  });
});

describe('a points budget beside the request budget', () => {
  test('when a free key sends 15 aliased addFeedbackItem, then it pays 15 writes, and its budget ends after 60 items, not 900', async () => {
    const { key, orgId } = await stack.createKey({ tier: 'free' });
    const results: GraphQLResponse[] = [];
    for (let i = 0; i < 5; i += 1) results.push(await stack.gql(addMany(15), { k: key }));

    expect(results.slice(0, 4).map((result) => result.body.extensions?.cost)).toEqual(
      [450, 300, 150, 0].map((remaining) => expect.objectContaining({ requested: 150, remaining })),
    );
    const refused = results[4];
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: `Cost limit exceeded: this request costs 150 points and this API key has 0 of 600 points per 60 s left; retry in ${retryAfter} s`,
      extensions: { code: 'RATE_LIMITED', retryAfter, cost: { requested: 150, remaining: 0, limit: 600 } },
    });
    const feedback = await stack.connect('feedback');
    expect(await feedback.collection('feedback_items').countDocuments({ orgId, title: 'Aliased' })).toBe(60);
    // Even a cheap read waits for the window now: the points are spent.
    expect((await stack.gql(COUNT, { k: key })).status).toBe(429);
  });

  test('when a request costs more points than are left, then it is refused and charged nothing', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    for (let i = 0; i < 3; i += 1) expect((await stack.gql(addMany(15), { k: key })).status).toBe(200);
    // 150 left: a request of 160 is refused, and the 150 remain for smaller ones.
    const tooDear = await stack.gql(addMany(16), { k: key });
    expect(tooDear.status).toBe(429);
    const cheaper = await stack.gql(COUNT, { k: key });
    expect(cheaper.body.extensions?.cost).toMatchObject({ remaining: 148 });
  });

  test('when a request costs more than the whole budget, then 400 says to ask for less', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const ids = Array.from({ length: 61 }, (_, i) => `${i}`.padStart(24, '0'));
    const response = await stack.gql(
      'mutation($k: String!, $ids: [String!]!) { updateFeedbackItemsStatus(apiKey: $k, ids: $ids, status: "read") }',
      { k: key, ids },
    );
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toMatchObject({
      message:
        "This request costs 610 points, more than this API key's budget of 600 points per 60 s; ask for less (a smaller take, fewer aliases, fewer ids)",
      extensions: { code: 'BAD_REQUEST', limit: 'points', max: 600 },
    });
    expect((await stack.gql(COUNT, { k: key })).body.extensions?.cost).toMatchObject({ remaining: 598 });
  });
});

describe('real clients', () => {
  const send = async (headers: Record<string, string>, body: string) => {
    const response = await fetch(stack.gatewayUrl, { method: 'POST', headers, body });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: (await response.json()) as GraphQLResponse['body'],
    };
  };

  test('when Apollo Client sends its request (operationName, variables, __typename, its accept header), then it gets its data and the cost beside it', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const response = await send(
      {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json,application/json;q=0.9',
        'apollographql-client-name': 'web',
      },
      JSON.stringify({
        operationName: 'Feedback',
        variables: { apiKey: key, take: 5 },
        query:
          'query Feedback($apiKey: String!, $take: Int) {\n  feedbackItems(apiKey: $apiKey, take: $take) {\n    total\n    items {\n      id\n      title\n      __typename\n    }\n    __typename\n  }\n}',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ feedbackItems: { total: 0, items: [], __typename: 'FeedbackItemList' } });
    expect(response.body.extensions?.cost).toMatchObject({ requested: 2 });
  });

  test('when graphql-request sends a mutation (query, variables, operationName; its accept header), then it works unchanged', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    const response = await send(
      { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      JSON.stringify({
        query:
          'mutation Add($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id status } }',
        variables: { apiKey: key, input: { source: 'api', title: 'From graphql-request', content: 'works' } },
        operationName: 'Add',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ addFeedbackItem: { id: expect.any(String), status: 'unread' } });
    expect(response.body.extensions?.cost).toMatchObject({ requested: 10, remaining: 590 });
  });
});
