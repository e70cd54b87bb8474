import { createHash } from 'node:crypto';
import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import { startStack, type Stack } from './helpers/stack';

/** The gateway's edges (issue 36): what it shows of itself, persisted queries, fragments, the admin schema. */

let stack: Stack;
let members: MemberService;
beforeAll(async () => {
  stack = await startStack();
  members = new MemberService(await openRepositories(await stack.connect('identity')));
});
afterAll(() => stack.close());

const adminUrl = () => `${stack.gateway.url}/admin/graphql`;
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
type Answer = {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
};

/** Signs a new owner of a new organization (of `tier`) in through the admin API; the page's session cookie. */
async function signedInCookie(tier: 'pro' | 'enterprise' = 'enterprise'): Promise<string> {
  const { orgId } = await stack.createKey({ tier });
  const email = `owner-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct horse battery staple';
  await members.add(OPERATOR, orgId, { email, name: 'Owner', role: 'owner', password });
  const response = await post(adminUrl(), {
    query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }',
    variables: { e: email, p: password },
  });
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error(`no session: ${JSON.stringify(await response.json())}`);
  return cookie.split(';')[0];
}

describe('what the gateway shows of itself', () => {
  test("when /ready is asked, then it says where the supergraph comes from without the host's paths", async () => {
    const response = await fetch(`${stack.gateway.url}/ready`);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ checks: { supergraph: { ok: true, source: 'file' } } });
    expect(text).not.toContain(process.cwd());
    expect(text).not.toContain('supergraph.graphql');
  });

  test('when /graphql and /admin/graphql answer, refusals included, then every answer says nosniff', async () => {
    const answers = await Promise.all([
      post(stack.gatewayUrl, { query: '{ __typename }' }),
      fetch(stack.gatewayUrl),
      post(adminUrl(), { query: '{ __typename }' }),
      fetch(adminUrl()),
    ]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the admin schema', () => {
  const INTROSPECTION = '{ __schema { queryType { name } } }';

  test.each([
    ['__schema', INTROSPECTION],
    ['__type', '{ __type(name: "Query") { name } }'],
    ['__schema through a fragment', '{ ...S } fragment S on Query { __schema { types { name } } }'],
  ])('when %s is asked without a session, then "Sign in first"', async (_, query) => {
    for (const headers of [{}, { cookie: 'fi_session=not-a-session' }] as Array<Record<string, string>>) {
      const body = (await (await post(adminUrl(), { query }, headers)).json()) as Answer;
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.[0]).toMatchObject({ message: 'Sign in first', extensions: { code: 'UNAUTHENTICATED' } });
    }
  });

  test('when a signed-in member introspects it, then it is answered', async () => {
    const cookie = await signedInCookie();
    const body = (await (await post(adminUrl(), { query: INTROSPECTION }, { cookie })).json()) as Answer;
    expect(body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  test('when an operation cannot be chosen, then 400 BAD_REQUEST there too', async () => {
    const response = await post(adminUrl(), { query: 'query A { __typename }', operationName: 'B' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).errors?.[0]).toMatchObject({
      message: 'Unknown operation named "B".',
      extensions: { code: 'BAD_REQUEST' },
    });
  });
});

describe('the admin API is priced as the public API, per member', () => {
  const HEAVY =
    '{ feedbackItems(take: 100) { items { id similar(take: 20) { score item { id similar(take: 20) { score item { id title } } } } } } }';

  test('when a member of a pro organization asks for 46,202 points at once, then 400 BAD_REQUEST names the points and nothing runs; a page is answered', async () => {
    const cookie = await signedInCookie('pro');

    const response = await post(adminUrl(), { query: HEAVY }, { cookie });

    expect(response.status).toBe(400);
    const body = (await response.json()) as Answer;
    expect(body.data ?? null).toBeNull();
    expect(body.errors).toEqual([
      {
        message:
          "This request costs 46202 points, more than this member's budget of 3000 points per 60 s; ask for less (a smaller take, fewer aliases, fewer ids)",
        extensions: expect.objectContaining({ code: 'BAD_REQUEST', limit: 'points', max: 3000 }),
      },
    ]);
    const page = (await (
      await post(adminUrl(), { query: '{ feedbackItems(take: 10) { total } }' }, { cookie })
    ).json()) as Answer;
    expect(page).toEqual({ data: { feedbackItems: { total: 0 } } });
  });
});

describe('automatic persisted queries', () => {
  const query = 'query($k: String!) { feedbackItems(apiKey: $k, take: 0) { total } }';
  const persisted = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };

  test('when a client registers a document and then sends its hash alone, then both are answered PERSISTED_QUERY_NOT_SUPPORTED, and the document sent next is answered with its valid key', async () => {
    const { key } = await stack.createKey();
    for (const body of [
      { query, variables: { k: key }, extensions: persisted },
      { variables: { k: key }, extensions: persisted },
    ]) {
      const answer = (await (await post(stack.gatewayUrl, body)).json()) as Answer;
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors).toEqual([
        { message: 'PersistedQueryNotSupported', extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } },
      ]);
    }
    // The client then sends the document, as Apollo Client's persisted-query link does, and the key is valid.
    const answer = (await (await post(stack.gatewayUrl, { query, variables: { k: key } })).json()) as Answer;
    expect(answer).toMatchObject({ data: { feedbackItems: { total: 0 } } });
  });
});

describe('fragments through the gateway', () => {
  test('when a depth-2 query goes through 4 nested fragments, then it is answered', async () => {
    const { key } = await stack.createKey();
    const query = `query($k: String!) { ...A } fragment A on Query { ...B } fragment B on Query { ...C }
      fragment C on Query { ...D } fragment D on Query { feedbackItems(apiKey: $k, take: 0) { total } }`;
    const answer = (await (await post(stack.gatewayUrl, { query, variables: { k: key } })).json()) as Answer & {
      extensions?: { cost?: { requested?: number } };
    };
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ feedbackItems: { total: 0 } });
  });

  test('when 50 fragments chain, each spread twice, then the cost is the one page it asks for', async () => {
    const { key } = await stack.createKey();
    const chain = Array.from({ length: 50 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
    const query = `query($k: String!) { ...F0 } ${chain.join(' ')} fragment F50 on Query { feedbackItems(apiKey: $k, take: 0) { total } }`;
    const answer = (await (await post(stack.gatewayUrl, { query, variables: { k: key } })).json()) as Answer & {
      extensions?: { cost?: { requested?: number } };
    };
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ feedbackItems: { total: 0 } });
    expect(answer.extensions?.cost?.requested).toBe(2);
  });
});
