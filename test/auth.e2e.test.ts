import { KeyService, openRepositories, OPERATOR } from '@fi/identity';
import { startStack, type Stack } from './helpers/stack';
import { GET_ACCOUNT, GET_CONTACT, GET_FEEDBACK, LIST_ACCOUNTS, LIST_CONTACTS, LIST_FEEDBACK } from './helpers/queries';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const INVALID = { message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } };

describe('a missing or invalid API key', () => {
  test.each([
    ['omitted', '{ feedbackItems { total } }', undefined],
    ['null inline', '{ feedbackItems(apiKey: null) { total } }', undefined],
    ['empty inline', '{ feedbackItems(apiKey: "") { total } }', undefined],
    ['a null variable', 'query($k: String!) { feedbackItems(apiKey: $k) { total } }', { k: null }],
    ['an unset variable', 'query($k: String!) { feedbackItems(apiKey: $k) { total } }', {}],
    ['an empty variable', 'query($k: String!) { feedbackItems(apiKey: $k) { total } }', { k: '' }],
    ['a nullable variable left null', 'query($k: String) { contactItems(apiKey: $k) { total } }', { k: null }],
    ['unknown', '{ accountItems(apiKey: "fik_unknownunknownunknown") { total } }', undefined],
    ['without the prefix', '{ accountItems(apiKey: "sk_live_123") { total } }', undefined],
    ['omitted on a mutation', 'mutation { removeFeedbackItem(id: "x") }', undefined],
  ])('when the key is %s, then UNAUTHENTICATED "Invalid API key"', async (_, query, variables) => {
    const response = await stack.gql(query, variables);
    expect(response.body.errors).toEqual([expect.objectContaining(INVALID)]);
    expect(response.body.data ?? null).toBeNull();
  });

  test('when one of two root fields lacks a key, then the whole operation is refused', async () => {
    const { key } = await stack.createKey();
    const response = await stack.gql(
      `query($k: String!) { a: feedbackItems(apiKey: $k) { total } b: contactItems(apiKey: "") { total } }`,
      { k: key },
    );
    expect(response.body.errors).toEqual([expect.objectContaining(INVALID)]);
  });

  test('when the key hides in a fragment, then it is still checked', async () => {
    const response = await stack.gql(
      'query { ...F } fragment F on Query { feedbackItems(apiKey: "fik_nope_nope_nope") { total } }',
    );
    expect(response.body.errors).toEqual([expect.objectContaining(INVALID)]);
  });

  test('when the key is revoked, then it stops working', async () => {
    const { key, id } = await stack.createKey();
    expect((await stack.gql(LIST_FEEDBACK, { apiKey: key })).body.errors).toBeUndefined();

    await new KeyService(await openRepositories(await stack.connect('identity'))).revoke(OPERATOR, id);
    const response = await stack.gql(LIST_FEEDBACK, { apiKey: key });
    expect(response.body.errors).toEqual([expect.objectContaining(INVALID)]);
  });

  test('when a subgraph is called directly without a key, then it refuses too', async () => {
    const response = await stack.gql('{ feedbackItems { total } }', undefined, {
      url: `${stack.subgraphs.feedback.url}/graphql`,
    });
    expect(response.body.errors).toEqual([expect.objectContaining(INVALID)]);
    const entities = await stack.gql(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on FeedbackItem { id title } } }',
      { r: [{ __typename: 'FeedbackItem', id: '0123456789abcdef01234567' }] },
      { url: `${stack.subgraphs.feedback.url}/graphql` },
    );
    expect(entities.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('a valid key', () => {
  test('when it asks for the introspection of the schema, then no key is needed', async () => {
    const response = await stack.gql<{ __schema: { queryType: { name: string } } }>(
      '{ __schema { queryType { name } } }',
    );
    expect(response.body.data?.__schema.queryType.name).toBe('Query');
  });

  test('when it reads every list, then it sees only its own organization (empty for a new one)', async () => {
    const { key } = await stack.createKey();
    for (const [query, field] of [
      [LIST_FEEDBACK, 'feedbackItems'],
      [LIST_CONTACTS, 'contactItems'],
      [LIST_ACCOUNTS, 'accountItems'],
    ] as const) {
      const response = await stack.gql<Record<string, { total: number; items: unknown[] }>>(query, { apiKey: key });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data?.[field]).toEqual({ total: 0, items: [] });
    }
  });

  test.each([
    [GET_FEEDBACK, 'feedbackItem'],
    [GET_CONTACT, 'contactItem'],
    [GET_ACCOUNT, 'accountItem'],
  ])('when a single-record query gets an unknown id, then null with NOT_FOUND (%#)', async (query, field) => {
    const { key } = await stack.createKey();
    for (const id of ['0123456789abcdef01234567', 'garbage', '']) {
      const response = await stack.gql(query, { apiKey: key, id });
      expect(response.body.data).toEqual({ [field]: null });
      expect(response.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
  });
});
