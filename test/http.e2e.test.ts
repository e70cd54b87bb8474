import { startStack, type Stack } from './helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type ErrorBody = { errors: Array<{ message: string; extensions: { code: string } }> };
const errorsOf = async (response: Response) => ((await response.json()) as ErrorBody).errors;

const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(stack.gatewayUrl, { method: 'POST', headers, body });

describe('the HTTP endpoint', () => {
  test('when called with GET, then 405 with Allow: POST and a JSON error', async () => {
    const response = await fetch(`${stack.gatewayUrl}?query=%7B__typename%7D`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await errorsOf(response))[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('when the body is not valid JSON, then 400 with a JSON errors array', async () => {
    const response = await post('{"query": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{ message: 'Malformed JSON body', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  test('when the content type is not JSON, then it is refused with a JSON error', async () => {
    const response = await post('query=%7B__typename%7D', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(415);
    expect((await errorsOf(response))[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('when the query has a syntax error, then BAD_REQUEST without a stack trace', async () => {
    const response = await stack.gql('{ feedbackItems(apiKey: "x" { total }');
    expect(response.body.errors?.[0].extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  test('when the query asks for an unknown field, then BAD_REQUEST', async () => {
    const { key } = await stack.createKey();
    const response = await stack.gql('query($k: String!) { feedbackItems(apiKey: $k) { nope } }', { k: key });
    expect(response.body.errors?.[0].extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  test('when a variable has the wrong type, then BAD_REQUEST', async () => {
    const { key } = await stack.createKey();
    const response = await stack.gql('query($k: String!, $t: Int) { feedbackItems(apiKey: $k, take: $t) { total } }', {
      k: key,
      t: 'ten',
    });
    expect(response.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  test('when requests are batched in an array, then they are refused', async () => {
    const response = await post(JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]));
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('when a request id is given, then it is echoed back; otherwise one is generated', async () => {
    const given = await stack.gql('{ __typename }', undefined, { headers: { 'x-request-id': 'req-123' } });
    expect(given.headers.get('x-request-id')).toBe('req-123');
    const generated = await stack.gql('{ __typename }');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when health and readiness are asked for, then both answer with JSON', async () => {
    const health = await fetch(`${stack.gateway.url}/health`);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const ready = await fetch(`${stack.subgraphs.feedback.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true } } });
  });
});

describe('an operation the request does not settle', () => {
  const postOperation = (body: Record<string, unknown>) => post(JSON.stringify(body));

  test.each([
    [
      'an unknown operationName',
      { query: 'query A { __typename }', operationName: 'B' },
      'Unknown operation named "B".',
    ],
    [
      'two anonymous operations',
      { query: '{ __typename } { __typename }' },
      'This anonymous operation must be the only defined operation.',
    ],
    [
      'two named operations and no operationName',
      { query: 'query A { __typename } query B { __typename }' },
      'Must provide operation name if query contains multiple operations.',
    ],
    [
      'a subscription',
      { query: 'subscription { feedbackItems }' },
      'Schema is not configured to execute subscription operation.',
    ],
  ])('when the request has %s, then 400 BAD_REQUEST with the usual message', async (_, body, message) => {
    const response = await postOperation(body);
    expect(response.status).toBe(400);
    const errors = await errorsOf(response);
    expect(errors[0]).toMatchObject({ message, extensions: { code: 'BAD_REQUEST' } });
  });
});
