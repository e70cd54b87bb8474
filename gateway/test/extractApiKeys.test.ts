import { DocumentCache } from '../src/auth/documentCache';
import { extractApiKeys, type KeyedRootFields } from '../src/auth/extractApiKeys';
import { readOperation } from '../src/auth/readOperation';

const keyed: KeyedRootFields = new Map([
  ['query', new Set(['feedbackItems', 'contactItems'])],
  ['mutation', new Set(['addFeedbackItem'])],
]);

function keysOf(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const request = readOperation({ query, variables, operationName }, new DocumentCache());
  if (!request) throw new Error('no operation');
  return extractApiKeys(request, keyed);
}

describe('reading the API keys of an operation', () => {
  test('when keys are inline, in variables, in defaults and in fragments, then each distinct key is found once', () => {
    const query = `query($a: String!, $b: String = "fik_default") {
      feedbackItems(apiKey: "fik_inline") { total }
      x: feedbackItems(apiKey: $a) { total }
      ...F
      contactItems(apiKey: $b) { total }
    }
    fragment F on Query { y: contactItems(apiKey: $a) { total } }`;
    expect(keysOf(query, { a: 'fik_var' })).toEqual({ keys: ['fik_inline', 'fik_var', 'fik_default'], missing: false });
  });

  test.each([
    ['omitted', '{ feedbackItems { total } }', {}],
    ['null', '{ feedbackItems(apiKey: null) { total } }', {}],
    ['blank', '{ feedbackItems(apiKey: "  ") { total } }', {}],
    ['an unset variable', 'query($k: String!) { feedbackItems(apiKey: $k) { total } }', {}],
    ['a number', 'query($k: String!) { feedbackItems(apiKey: $k) { total } }', { k: 42 }],
  ])('when the key is %s, then it is reported missing', (_, query, variables) => {
    expect(keysOf(query, variables).missing).toBe(true);
  });

  test('when a field takes no key (introspection), then no key is needed', () => {
    expect(keysOf('{ __typename __schema { queryType { name } } }')).toEqual({ keys: [], missing: false });
  });

  test('when a document has several operations, then only the named one counts', () => {
    const query =
      'query A { feedbackItems(apiKey: "fik_a") { total } } mutation B { addFeedbackItem(apiKey: "fik_b", input: {source: "s", title: "t", content: "c"}) { id } }';
    expect(keysOf(query, {}, 'B').keys).toEqual(['fik_b']);
    expect(readOperation({ query }, new DocumentCache())).toBeNull();
  });

  test('when the document does not parse or exceeds the token limit, then there is no operation to read', () => {
    expect(readOperation({ query: '{ feedbackItems(' }, new DocumentCache())).toBeNull();
    expect(readOperation({ query: '{ a b c d e f }' }, new DocumentCache({ maxTokens: 4 }))).toBeNull();
    expect(readOperation({ query: 42 }, new DocumentCache())).toBeNull();
  });

  test('when fragments spread each other twice in a chain of 50, then the keys are read at once', () => {
    const chain = Array.from({ length: 50 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
    const started = Date.now();
    expect(
      keysOf(`{ ...F0 } ${chain.join(' ')} fragment F50 on Query { feedbackItems(apiKey: "fik_deep") { total } }`),
    ).toEqual({ keys: ['fik_deep'], missing: false });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
