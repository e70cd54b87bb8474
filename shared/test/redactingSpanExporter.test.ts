import { redactAttributes } from '../src/telemetry/redactingSpanExporter';

const KEY = 'fik_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

describe('redactAttributes', () => {
  test('when an attribute holds a key in a string, an array or under the identity header, then only the key is masked', () => {
    expect(
      redactAttributes({
        'url.query': `apiKey=${KEY}&take=5`,
        'graphql.source': `{ a(apiKey: "${KEY}") }`,
        list: ['plain', `k=${KEY}`],
        'http.request.header.x-fi-identity': ['hint-free value'],
        'http.response.status_code': 200,
        ok: true,
      }),
    ).toEqual({
      'url.query': 'apiKey=fik_[REDACTED]&take=5',
      'graphql.source': '{ a(apiKey: "fik_[REDACTED]") }',
      list: ['plain', 'k=fik_[REDACTED]'],
      'http.request.header.x-fi-identity': '[REDACTED]',
      'http.response.status_code': 200,
      ok: true,
    });
  });
});
