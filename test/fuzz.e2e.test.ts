import fc from 'fast-check';
import {
  ADD_FEEDBACK,
  GET_ACCOUNT,
  GET_CONTACT,
  GET_FEEDBACK,
  LIST_ACCOUNTS,
  LIST_CONTACTS,
  LIST_FEEDBACK,
  REMOVE_FEEDBACK,
} from './helpers/queries';
import { ownDatabaseName, startStack, type GraphQLResponse, type Stack } from './helpers/stack';

/**
 * Property-based tests: random, hostile and malformed values for every argument of every operation.
 * Whatever comes in, the answer is a documented one, never an internal error, and a refused write
 * stores nothing.
 */
let stack: Stack;
let key: string;
beforeAll(async () => {
  // Random keys are refused by the hundred here; the guard against key guessing is tested elsewhere.
  // Its own feedback database: every run counts the items, and on the test database a count scans the
  // collection, which the other test files keep filling.
  stack = await startStack({ INVALID_KEY_LIMIT: '1000000' }, { databases: { feedback: ownDatabaseName('fuzz') } });
  ({ key } = await stack.createKey({ tier: 'enterprise' }));
});
afterAll(() => stack.close());

const RUNS = { numRuns: 40 };

const deepObject = (depth: number): unknown => (depth === 0 ? 'leaf' : { nested: deepObject(depth - 1) });
const anyValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom('', ' ', '\u0000', '.*', '$where', '{"$gt": ""}', '(a+)+$', 'x'.repeat(70_000), '🙂'.repeat(1000)),
  fc.integer(),
  fc.constantFrom(-1, 0, 100, 101, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_VALUE, -0.5, 1e308),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 4 }),
  fc.integer({ min: 6, max: 60 }).map(deepObject),
  fc.array(fc.string(), { maxLength: 300 }),
);

function assertDocumented(response: GraphQLResponse<unknown>, allowedCodes: string[]): void {
  expect([200, 400]).toContain(response.status);
  for (const error of response.body.errors ?? []) {
    expect(allowedCodes).toContain(error.extensions?.code);
    expect(error.extensions?.stacktrace).toBeUndefined();
  }
}

async function feedbackTotal(): Promise<number> {
  const response = await stack.gql<{ feedbackItems: { total: number } }>(LIST_FEEDBACK, { apiKey: key, take: 0 });
  return response.body.data!.feedbackItems.total;
}

test('when list arguments are random, then every answer is a page or BAD_REQUEST', async () => {
  await fc.assert(
    fc.asyncProperty(
      anyValue,
      anyValue,
      anyValue,
      anyValue,
      anyValue,
      async (skip, take, source, status, sentiment) => {
        const response = await stack.gql<{ feedbackItems: { items: unknown[] } }>(LIST_FEEDBACK, {
          apiKey: key,
          skip,
          take,
          source,
          status,
          sentiment,
        });
        assertDocumented(response, ['BAD_REQUEST']);
        if (!response.body.errors) expect(response.body.data!.feedbackItems.items.length).toBeLessThanOrEqual(100);
      },
    ),
    RUNS,
  );
});

test('when searches are random, then contacts and accounts answer a page or BAD_REQUEST', async () => {
  await fc.assert(
    fc.asyncProperty(anyValue, anyValue, anyValue, async (search, skip, take) => {
      for (const query of [LIST_CONTACTS, LIST_ACCOUNTS]) {
        assertDocumented(await stack.gql(query, { apiKey: key, search, skip, take }), ['BAD_REQUEST']);
      }
    }),
    RUNS,
  );
});

test('when ids are random, then single-record queries answer NOT_FOUND or BAD_REQUEST and removal removes nothing', async () => {
  const before = await feedbackTotal();
  await fc.assert(
    fc.asyncProperty(anyValue, async (id) => {
      for (const query of [GET_FEEDBACK, GET_CONTACT, GET_ACCOUNT]) {
        assertDocumented(await stack.gql(query, { apiKey: key, id }), ['NOT_FOUND', 'BAD_REQUEST']);
      }
      assertDocumented(await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id }), ['FORBIDDEN', 'BAD_REQUEST']);
    }),
    RUNS,
  );
  expect(await feedbackTotal()).toBe(before);
});

test('when API keys are random, then the answer is UNAUTHENTICATED or BAD_REQUEST', async () => {
  await fc.assert(
    fc.asyncProperty(anyValue, async (apiKey) => {
      assertDocumented(await stack.gql(LIST_FEEDBACK, { apiKey }), ['UNAUTHENTICATED', 'BAD_REQUEST']);
    }),
    RUNS,
  );
});

const SENTIMENTS = ['positive', 'neutral', 'negative'];

test('when new items are random, then only valid items are stored and refusals store nothing', async () => {
  const inputField = fc.oneof(
    anyValue,
    fc.constantFrom('api', 'Valid title', 'ada@example.com', 'positive', 'negative'),
  );
  const inputs = fc.record(
    {
      source: inputField,
      title: inputField,
      content: inputField,
      author: inputField,
      email: inputField,
      sentiment: inputField,
      metadata: anyValue,
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.oneof(inputs, anyValue), async (input) => {
      const before = await feedbackTotal();
      const response = await stack.gql<{ addFeedbackItem: Record<string, unknown> }>(ADD_FEEDBACK, {
        apiKey: key,
        input,
      });
      assertDocumented(response, ['BAD_REQUEST']);
      if (response.body.errors) {
        expect(await feedbackTotal()).toBe(before);
        return;
      }
      const item = response.body.data!.addFeedbackItem;
      for (const field of ['source', 'title', 'content']) expect(String(item[field]).trim()).not.toBe('');
      expect(item.status).toBe('unread');
      if (item.email !== null) expect(item.email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
      if (item.sentiment !== null) expect(SENTIMENTS).toContain(item.sentiment);
      if (item.metadata !== null) expect(typeof item.metadata === 'object' && !Array.isArray(item.metadata)).toBe(true);
      expect(await feedbackTotal()).toBe(before + 1);
    }),
    { numRuns: 60 },
  );
  // Three requests a run: a loaded machine needs more than the default minute for sixty runs.
}, 180_000);
