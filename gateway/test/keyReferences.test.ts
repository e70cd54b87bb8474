import { withKeyReferences } from '../src/auth/keyReferences';

const key = 'fik_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const refs = new Map([[key, 'key_0011223344556677']]);

describe('API keys in the operation sent to a subgraph', () => {
  test('when the key is a variable, then the subgraph receives the key id in its place', () => {
    const sent = withKeyReferences(
      { query: 'query($k: String!) { feedbackItems(apiKey: $k) { total } }', variables: { k: key, take: 5 } },
      refs,
    );
    expect(sent.variables).toEqual({ k: 'key_0011223344556677', take: 5 });
    expect(JSON.stringify(sent)).not.toContain(key);
  });

  test('when the key is written inline, then the key itself is replaced by its id and every other value is left as written', () => {
    const sent = withKeyReferences(
      { query: `{ feedbackItems(apiKey: "${key}", search: "other") { total } }`, variables: undefined },
      refs,
    );
    expect(sent.query).toContain('apiKey: "key_0011223344556677"');
    expect(sent.query).toContain('search: "other"');
    expect(sent.query).not.toContain(key);
  });

  test('when the operation has no key, then it is sent as it came', () => {
    const operation = { query: '{ _entities(representations: []) { __typename } }', variables: { r: [] } };
    expect(withKeyReferences(operation, new Map())).toBe(operation);
  });
});
