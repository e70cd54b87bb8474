import { Types } from 'mongoose';
import { LogSink } from './helpers/logSink';
import { FEEDBACK_FIELDS, LIST_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/** Oversized bodies, hostile documents and internal faults: each gets a clear, documented answer. */

let stack: Stack;
const logs = new LogSink();
let key: string;
let orgId: string;
beforeAll(async () => {
  stack = await startStack({}, { logSink: logs });
  ({ key, orgId } = await stack.createKey());
});
afterAll(() => stack.close());

const feedbackField = (alias: string) => `${alias}: feedbackItems(apiKey: $k, take: 0) { total }`;

describe('hostile documents are refused at the gateway with BAD_REQUEST naming the limit', () => {
  test.each([
    [
      'aliases',
      `query($k: String!) { ${Array.from({ length: 16 }, (_, i) => feedbackField(`a${i}`)).join(' ')} }`,
      /^Aliases limit of 15 exceeded \(found 16\)$/,
      'aliases',
      15,
    ],
    [
      'depth',
      `query($k: String!) { feedbackItems(apiKey: $k) { items { similar { item { similar { item { similar { item { id } } } } } } } } }`,
      /^Query depth limit of 8 exceeded \(depth 9\)$/,
      'depth',
      8,
    ],
    [
      'directives',
      `query($k: String!) { feedbackItems(apiKey: $k) { total ${'@skip(if: false) '.repeat(21)} } }`,
      /^Directives limit of 20 exceeded \(found 21\)$/,
      'directives',
      20,
    ],
    [
      'tokens',
      `query($k: String!) { feedbackItems(apiKey: $k) { ${'total '.repeat(2_000)} } }`,
      /^Token limit of 2000 exceeded: the document has more than 2000 tokens$/,
      'tokens',
      2000,
    ],
    [
      'cost',
      `query($k: String!) { ${Array.from({ length: 15 }, (_, i) => `a${i}: feedbackItems(apiKey: $k) { items { ${FEEDBACK_FIELDS} similar { score item { ${FEEDBACK_FIELDS} } } } }`).join(' ')} }`,
      /^Query cost limit of 1000 exceeded \(estimated cost \d+\)$/,
      'cost',
      1000,
    ],
  ])(
    'when a document exceeds the %s limit, then one error worded as that limit answers it',
    async (_, query, message, limit, max) => {
      const before = await stack.gql<{ feedbackItems: { total: number } }>(LIST_FEEDBACK, { apiKey: key, take: 0 });
      const response = await stack.gql(query, { k: key });
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors?.[0].message).toMatch(message);
      expect(response.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_REQUEST', limit, max });
      expect(response.body.data ?? null).toBeNull();
      const after = await stack.gql<{ feedbackItems: { total: number } }>(LIST_FEEDBACK, { apiKey: key, take: 0 });
      expect(after.body.data).toEqual(before.body.data);
    },
  );

  test('when a subgraph answers an error, then its extensions name no internal service', async () => {
    const response = await stack.gql(
      `query($k: String!) { feedbackItem(apiKey: $k, id: "${'0'.repeat(24)}") { id } }`,
      { k: key },
    );
    expect(response.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })]);
  });

  test('when a field name is mistyped, then the error does not suggest schema names', async () => {
    const response = await stack.gql('query($k: String!) { feedbackItems(apiKey: $k) { totl } }', { k: key });
    expect(response.body.errors?.[0].message).toBe('Cannot query field "totl" on type "FeedbackItemList".');
  });
});

describe('the HTTP body', () => {
  test('when it is over 1 MiB, then 413 with a JSON error and nothing is stored', async () => {
    const response = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($k: String!, $in: NewFeedbackInput!) { addFeedbackItem(apiKey: $k, input: $in) { id } }',
        variables: { k: key, in: { source: 'api', title: 'Huge', content: 'x'.repeat(1_100_000) } },
      }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      errors: [{ message: 'Request body exceeds 1048576 bytes', extensions: { code: 'BAD_REQUEST' } }],
    });
    const feedback = await stack.connect('feedback');
    expect(await feedback.collection('feedback_items').countDocuments({ orgId, title: 'Huge' })).toBe(0);
  });
});

describe('an internal fault', () => {
  test('when stored data cannot be served, then INTERNAL_SERVER_ERROR with a generic message and the request id; the log has the detail', async () => {
    const { key: faultyKey, orgId: faultyOrg } = await stack.createKey();
    const feedback = await stack.connect('feedback');
    // A record written around the API with a date that is not a date.
    await feedback.collection('feedback_items').insertOne({
      _id: new Types.ObjectId(),
      orgId: faultyOrg,
      source: 'api',
      title: 'Corrupt',
      content: 'Bad date',
      status: 'unread',
      publishedDate: 'not a date',
      createdAt: new Date(),
    });

    const response = await stack.gql(LIST_FEEDBACK, { apiKey: faultyKey }, { headers: { 'x-request-id': 'fault-7' } });

    expect(response.status).toBe(200);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: 'Internal server error',
        extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'fault-7' },
      }),
    ]);
    expect(JSON.stringify(response.body)).not.toMatch(/DateTime|stack|at .*\.ts/);
    const detail = logs.lines().find((line) => line.requestId === 'fault-7' && line.msg === 'internal error');
    expect(JSON.stringify(detail)).toMatch(/DateTime cannot represent an invalid date/);
  });
});
