import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import type { OperationRequest } from '../src/auth/readOperation';
import { readCostDirectives } from '../src/cost/costDirectives';
import { COST, operationCost } from '../src/cost/operationCost';
import { readOperation } from '../src/auth/readOperation';
import { DocumentCache } from '../src/auth/documentCache';

const supergraphSdl = readFileSync(path.resolve(__dirname, '../../supergraph.graphql'), 'utf8');
const schema = Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
const directives = readCostDirectives(supergraphSdl);
const documents = new DocumentCache();
const cost = (query: string, variables: Record<string, unknown> = {}) => {
  const request = readOperation({ query, variables }, documents) as OperationRequest;
  expect(request).not.toBeNull();
  return operationCost({ schema, directives }, request);
};
const aliases = (count: number, field: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => field(i)).join(' ');

describe('the cost of an operation', () => {
  test('when a page asks for scalars only, then it costs one page, whatever its take', () => {
    expect(cost('query($k: String!) { feedbackItems(apiKey: $k) { total items { id title metadata } } }')).toBe(
      COST.page,
    );
    expect(cost('query($k: String!) { feedbackItems(apiKey: $k, take: 100) { items { id } } }')).toBe(COST.page);
  });

  test('when each item of a page links another entity, then every link of every item is paid, by take', () => {
    const query =
      'query($k: String!, $t: Int) { feedbackItems(apiKey: $k, take: $t) { items { id contact { name } } } }';
    expect(cost(query, { t: 20 })).toBe(COST.page + 20 * COST.object);
    // Unset: the schema's default take (50).
    expect(cost(query)).toBe(COST.page + 50 * COST.object);
    // A take the subgraph will refuse costs as the largest page.
    expect(cost(query, { t: 100_000 })).toBe(COST.page + 100 * COST.object);
  });

  test("when a changes feed is read, then it costs a page: each entry's record comes with it, its links do not", () => {
    expect(
      cost('query($k: String!) { feedbackChanges(apiKey: $k) { items { type item { id title } } cursor hasMore } }'),
    ).toBe(COST.page);
    expect(
      cost('query($k: String!) { contactsChanges(apiKey: $k, take: 10) { items { item { name account { name } } } } }'),
    ).toBe(COST.page + 10 * COST.object);
  });

  test('when pages nest, then their takes multiply', () => {
    const query =
      'query($k: String!) { contactItems(apiKey: $k, take: 10) { items { feedback(take: 5) { items { id } } } } }';
    expect(cost(query)).toBe(COST.page + 10 * COST.page);
  });

  test('when ten aliases each ask a page, then the request pays ten pages, also through fragments', () => {
    const query = `query($k: String!) { ${aliases(10, (i) => `a${i}: feedbackItems(apiKey: $k) { total }`)} }`;
    expect(cost(query)).toBe(10 * COST.page);
    expect(
      cost(
        `query($k: String!) { ...F } fragment F on Query { ${aliases(10, (i) => `a${i}: feedbackItems(apiKey: $k) { total }`)} }`,
      ),
    ).toBe(10 * COST.page);
  });

  test('when one record is read, then it costs one object plus its links', () => {
    expect(cost('query($k: String!) { feedbackItem(apiKey: $k, id: "x") { id title } }')).toBe(COST.object);
    expect(cost('query($k: String!) { contactItem(apiKey: $k, id: "x") { id account { name } } }')).toBe(
      2 * COST.object,
    );
  });

  test('when a mutation writes, then it pays each record it can write', () => {
    const add = `mutation($k: String!) { ${aliases(15, (i) => `a${i}: addFeedbackItem(apiKey: $k, input: { source: "api", title: "t", content: "c" }) { id }`)} }`;
    expect(cost(add)).toBe(15 * COST.write);
    expect(
      cost(
        'mutation($k: String!, $ids: [String!]!) { updateFeedbackItemsStatus(apiKey: $k, ids: $ids, status: "read") }',
        { ids: ['a', 'b', 'c'] },
      ),
    ).toBe(3 * COST.write);
    expect(cost('mutation($k: String!) { removeFeedbackItem(apiKey: $k, id: "x") }')).toBe(COST.write);
    expect(
      cost('mutation($k: String!) { mergeFeedbackItems(apiKey: $k, id: "x", duplicateIds: ["a", "b"]) { id } }'),
    ).toBe(2 * COST.write);
  });

  test('when a request is introspection or names unknown fields, then it costs nothing', () => {
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(0);
    expect(cost('{ __typename nope { id } }')).toBe(0);
  });

  test('when fragments nest in a chain of 50, each spread twice, then the cost is what the fields cost, priced at once', () => {
    const chain = Array.from({ length: 50 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
    const query = `query($k: String!) { ...F0 } ${chain.join(' ')} fragment F50 on Query { feedbackItems(apiKey: $k, take: 10) { items { contact { name } } } }`;
    const started = Date.now();
    expect(cost(query)).toBe(COST.page + 10 * COST.object);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('when a fragment is spread twice in one selection set, then it is paid once, as it is executed once', () => {
    const query =
      'query($k: String!) { feedbackItems(apiKey: $k, take: 10) { items { ...C ...C } } } fragment C on FeedbackItem { contact { name } }';
    expect(cost(query)).toBe(COST.page + 10 * COST.object);
  });
});
