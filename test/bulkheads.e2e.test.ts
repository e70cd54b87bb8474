import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import { startStack, type GraphQLResponse, type Stack } from './helpers/stack';

/** No organization takes more than its share of a service's database work; no key more than its share of the gateway. */

const aliased = (count: number) =>
  `query($k: String!) { ${Array.from({ length: count }, (_, i) => `a${i}: feedbackItems(apiKey: $k, take: 0) { total }`).join(' ')} }`;
const COUNT = 'query($k: String!, $source: String) { feedbackItems(apiKey: $k, take: 0, source: $source) { total } }';

describe('a bulkhead per organization in each subgraph', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ORG_CONCURRENCY: '1', ORG_QUEUE: '0' });
  });
  afterAll(() => stack.close());

  test("when an organization asks for more operations at once than its share and queue, then the excess is refused with RATE_LIMITED, and another organization's read is served", async () => {
    const { key: attacker } = await stack.createKey();
    const { key: tenant } = await stack.createKey();

    const [attack, read] = await Promise.all([stack.gql(aliased(3), { k: attacker }), stack.gql(COUNT, { k: tenant })]);

    expect(read.body.errors).toBeUndefined();
    expect(read.body.data).toEqual({ feedbackItems: { total: 0 } });
    // One alias ran; the others were refused at once, and as the fields are non-null no data is left
    // (the gateway reports the refusal that nulled the response).
    expect(attack.status).toBe(429);
    expect(attack.headers.get('retry-after')).toBe('1');
    expect(attack.body.data ?? null).toBeNull();
    expect(attack.body.errors?.length).toBeGreaterThan(0);
    for (const error of attack.body.errors ?? []) {
      expect(error).toMatchObject({
        message: 'This organization has too many operations in progress on the feedback service; retry in 1 s',
        extensions: { code: 'RATE_LIMITED', retryAfter: 1, service: 'feedback' },
      });
    }
  });

  test('when a subgraph refused a whole request for its organization, then that key is refused at the gateway until its Retry-After, and another key of the organization is served', async () => {
    const { key: heavy, orgId } = await stack.createKey();
    const { key: sibling } = await stack.createKey({ orgId });

    const attack = await stack.gql(aliased(3), { k: heavy });
    expect(attack.status).toBe(429);
    expect(attack.body.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED', service: 'feedback' });
    const [again, other] = await Promise.all([stack.gql(COUNT, { k: heavy }), stack.gql(COUNT, { k: sibling })]);

    // Sent at once after the refusal (well within its 1 s): answered by the gateway, no subgraph asked.
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1');
    expect(again.body.errors).toEqual([
      {
        message:
          'Your last request was refused because this organization had too many operations in progress; retry in 1 s',
        extensions: { code: 'RATE_LIMITED', retryAfter: 1 },
      },
    ]);
    expect(other.body.errors).toBeUndefined();
    expect(other.body.data).toEqual({ feedbackItems: { total: 0 } });
  });

  test("when a subgraph refused a signed-in member's whole request, then that member is refused at the gateway until its Retry-After, and another member of the organization is served", async () => {
    const { orgId } = await stack.createKey({ tier: 'enterprise' });
    const members = new MemberService(await openRepositories(await stack.connect('identity')));
    const adminUrl = stack.gatewayUrl.replace(/\/graphql$/, '/admin/graphql');
    const signIn = async (name: string) => {
      const email = `${name}-${Date.now()}@example.com`;
      await members.add(OPERATOR, orgId, { email, name, role: 'viewer', password: `${name} password 1234` });
      const response = await fetch(adminUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }',
          variables: { e: email, p: `${name} password 1234` },
        }),
      });
      return (response.headers.get('set-cookie') ?? '').split(';')[0];
    };
    const [heavy, other] = [await signIn('heavy'), await signIn('other')];
    const ask = (cookie: string, query: string) =>
      fetch(adminUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ query }),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as GraphQLResponse['body'],
      }));
    const three = `{ ${['a', 'b', 'c'].map((alias) => `${alias}: feedbackItems(take: 0) { total }`).join(' ')} }`;

    const attack = await ask(heavy, three);
    expect(attack.status).toBe(429);
    expect(attack.body.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED', service: 'feedback' });
    const [again, served] = await Promise.all([
      ask(heavy, '{ feedbackItems(take: 0) { total } }'),
      ask(other, '{ feedbackItems(take: 0) { total } }'),
    ]);

    expect(again.status).toBe(429);
    expect(again.body.errors?.[0]).toEqual({
      message:
        'Your last request was refused because this organization had too many operations in progress; retry in 1 s',
      extensions: { code: 'RATE_LIMITED', retryAfter: 1 },
    });
    expect(served.body).toEqual({ data: { feedbackItems: { total: 0 } } });
  });

  test('when a page nests a read per item (similar), then each nested read takes a place of the organization too', async () => {
    const { key } = await stack.createKey();
    const add =
      'mutation($k: String!, $t: String!) { addFeedbackItem(apiKey: $k, input: { source: "api", title: $t, content: "Slow export" }) { id } }';
    for (const title of ['Export is slow', 'Exports are slow', 'Slow exports']) {
      expect((await stack.gql(add, { k: key, t: title })).body.errors).toBeUndefined();
    }

    const page = await stack.gql(
      'query($k: String!) { feedbackItems(apiKey: $k, take: 3) { items { id similar { score } } } }',
      {
        k: key,
      },
    );

    // One place and no queue: the three items' similar reads start at once, one runs, the others are refused.
    const refused = (page.body.errors ?? []).filter((error) => error.extensions?.code === 'RATE_LIMITED');
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) expect((error as { path?: unknown[] }).path).toContain('similar');
  });

  test('when every operation of a request is refused, then 429 with Retry-After', async () => {
    const { key } = await stack.createKey();
    // Two identical one-field requests at once would share one execution; these differ by a filter.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => stack.gql(COUNT, { k: key, source: `s${i}` })),
    );
    const refused = results.filter((result) => result.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) {
      expect(result.headers.get('retry-after')).toBe('1');
      expect(result.body.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    }
    expect(results.filter((result) => result.status === 200 && !result.body.errors).length).toBeGreaterThan(0);
  });
});

describe('a burst of one organization under the default bulkhead', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  test('when 55 addFeedbackItem of one enterprise key arrive at once and would all finish within the wait, then all succeed', async () => {
    const { key } = await stack.createKey({ tier: 'enterprise' });
    const add =
      'mutation($k: String!, $t: String!) { addFeedbackItem(apiKey: $k, input: { source: "api", title: $t, content: "Burst" }) { id } }';

    const results = await Promise.all(
      Array.from({ length: 55 }, (_, i) => stack.gql(add, { k: key, t: `Burst ${i}` })),
    );

    expect(results.map((result) => result.body.errors?.[0]?.message ?? null)).toEqual(Array(55).fill(null));
    const total = await stack.gql<{ feedbackItems: { total: number } }>(COUNT, { k: key });
    expect(total.body.data?.feedbackItems.total).toBe(55);
  });
  test('when three keys of one organization send 60 writes at once (more than its places and any count of 32 waiting), then all succeed', async () => {
    const { key, orgId } = await stack.createKey({ tier: 'enterprise' });
    const keys = [key, (await stack.createKey({ orgId })).key, (await stack.createKey({ orgId })).key];
    const add =
      'mutation($k: String!, $t: String!) { addFeedbackItem(apiKey: $k, input: { source: "api", title: $t, content: "Burst" }) { id } }';

    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => stack.gql(add, { k: keys[i % 3], t: `Burst ${i}` })),
    );

    expect(results.map((result) => result.body.errors?.[0]?.message ?? null)).toEqual(Array(60).fill(null));
  });
});

describe('queued operations of an organization', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ORG_CONCURRENCY: '1', ORG_QUEUE: '20' });
  });
  afterAll(() => stack.close());

  test('when they fit the queue, then they wait their turn and all are answered', async () => {
    const { key } = await stack.createKey();
    const response = await stack.gql(aliased(10), { k: key });
    expect(response.body.errors).toBeUndefined();
    expect(Object.values(response.body.data ?? {})).toEqual(Array(10).fill({ total: 0 }));
  });
});

describe('a limit of concurrent requests per key in the gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ KEY_CONCURRENCY: '1', KEY_QUEUE: '0' });
  });
  afterAll(() => stack.close());

  test('when one key opens more requests at once than its limit, then the excess gets 429 with Retry-After; another key is served', async () => {
    const { key } = await stack.createKey();
    const { key: other } = await stack.createKey();
    const [results, otherResult] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, (_, i) => stack.gql(COUNT, { k: key, source: `s${i}` }))),
      stack.gql(COUNT, { k: other }),
    ]);
    const refused: GraphQLResponse[] = results.filter((result) => result.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) {
      expect(result.headers.get('retry-after')).toBe('1');
      expect(result.body.errors?.[0]).toMatchObject({
        message: 'Too many concurrent requests for this API key; retry in 1 s',
        extensions: { code: 'RATE_LIMITED', retryAfter: 1 },
      });
    }
    expect(results.some((result) => result.status === 200 && !result.body.errors)).toBe(true);
    expect(otherResult.body.errors).toBeUndefined();
  });
});
