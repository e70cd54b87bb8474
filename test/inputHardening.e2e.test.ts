import { MAX_BODY_DEPTH } from '@fi/shared';
import { signedIdentityFor } from './helpers/keys';
import { eventually } from './helpers/processes';
import { PrivateRedis } from './helpers/privateRedis';
import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/** Input that used to break the wrong way: each gets a clear BAD_REQUEST, and nothing else suffers. */

/** JSON text of an object nested `levels` deep, written out (JSON.stringify itself would recurse). */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;
const nested = (levels: number): unknown => JSON.parse(nestedJson(levels));
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('deep, malformed or hostile input', () => {
  let stack: Stack;
  let key: string;
  let orgId: string;
  beforeAll(async () => {
    stack = await startStack();
    ({ key, orgId } = await stack.createKey());
  });
  afterAll(() => stack.close());

  test('when a keyless request has an unused variable nested 6,000 levels, then 400 BAD_REQUEST names the depth limit', async () => {
    const response = await post(
      stack.gatewayUrl,
      `{"query":"query($v: JSON) { __typename }","variables":{"v":${nestedJson(6_000)}}}`,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
          extensions: { code: 'BAD_REQUEST', limit: 'depth', max: MAX_BODY_DEPTH },
        },
      ],
    });
  });

  test('when metadata is nested 5,000 levels, then BAD_REQUEST, nothing is stored, and the feedback service still answers', async () => {
    const response = await post(
      stack.gatewayUrl,
      `{"query":${JSON.stringify(ADD_FEEDBACK)},"variables":{"apiKey":"${key}","input":{"source":"api","title":"Deep","content":"x","metadata":${nestedJson(5_000)}}}}`,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ extensions: unknown }> }).errors[0].extensions).toMatchObject({
      code: 'BAD_REQUEST',
      limit: 'depth',
    });
    const ok = await stack.gql(ADD_FEEDBACK, {
      apiKey: key,
      input: { source: 'api', title: 'Shallow', content: 'x', metadata: nested(3) },
    });
    expect(ok.body.errors).toBeUndefined();
    const feedback = await stack.connect('feedback');
    expect(await feedback.collection('feedback_items').countDocuments({ orgId, title: 'Deep' })).toBe(0);
  });

  test('when metadata has a __proto__ key, then BAD_REQUEST names it and nothing is stored', async () => {
    const input = JSON.parse(
      '{"source":"api","title":"Proto","content":"x","metadata":{"__proto__":{"isAdmin":true}}}',
    ) as unknown;
    const response = await stack.gql(ADD_FEEDBACK, { apiKey: key, input });
    expect(response.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^metadata keys must not be __proto__/),
      extensions: { code: 'BAD_REQUEST' },
    });
    const feedback = await stack.connect('feedback');
    expect(await feedback.collection('feedback_items').countDocuments({ orgId, title: 'Proto' })).toBe(0);
  });

  test('when a title holds a bidi override, or 500 emoji, then the first is refused and the second fits the 500-character limit', async () => {
    const bidi = await stack.gql(ADD_FEEDBACK, {
      apiKey: key,
      input: { source: 'api', title: 'invoice\u202Efdp.exe', content: 'x' },
    });
    expect(bidi.body.errors?.[0]).toMatchObject({
      message: 'title must not contain control characters or bidirectional overrides',
      extensions: { code: 'BAD_REQUEST', argument: 'title' },
    });
    const emoji = await stack.gql(ADD_FEEDBACK, {
      apiKey: key,
      input: { source: 'api', title: '😀'.repeat(500), content: 'x' },
    });
    expect(emoji.body.errors).toBeUndefined();
  });

  test('when _entities gets a representation field as an object, then BAD_REQUEST names it', async () => {
    const response = await post(
      `${stack.subgraphs.feedback.url}/graphql`,
      {
        query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on FeedbackItem { title } } }',
        variables: { r: [{ __typename: 'FeedbackItem', id: { $gt: '' } }] },
      },
      signedIdentityFor(key),
    );
    const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0]).toMatchObject({
      message: 'representations[0].id must be a string, number, boolean or null',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  test('when an API key is sent as the request id, then it is replaced by a fresh id', async () => {
    const response = await post(stack.gatewayUrl, { query: '{ __typename }' }, { 'x-request-id': key });
    const requestId = response.headers.get('x-request-id');
    expect(requestId).not.toBe(key);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Redis comes back while no request arrives', () => {
  let redis: PrivateRedis;
  let stack: Stack;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    stack = await startStack({ REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '200' });
  });
  afterAll(async () => {
    await stack.close();
    await redis.stop();
  });

  const store = async () =>
    ((await (await fetch(`${stack.gateway.url}/health`)).json()) as { rateLimiter: { store: string } }).rateLimiter
      .store;

  test('when Redis returns, then /health reports it by itself, with no keyed request in between', async () => {
    const { key } = await stack.createKey({ tier: 'free' });
    await redis.stop();
    await stack.gql('query($k: String!) { feedbackItems(apiKey: $k, take: 0) { total } }', { k: key });
    expect(await store()).toBe('insurance');
    await redis.restart();
    await eventually(async () => (await store()) === 'redis', 15_000, '/health to report Redis again');
  });
});
