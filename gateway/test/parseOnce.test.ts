import http from 'node:http';
import type { Principal } from '@fi/shared';
import { gatewayOverStandIn } from './helpers/gatewayOverStandIn';

/**
 * The identity service and the feedback subgraph in one stand-in: it knows one key, and answers every
 * subgraph call with an empty item, recording the query the subgraph was sent.
 */
const key = 'fik_parseOnceKey0123456789abcdefghijklmnopqrstu';
const principal: Principal = {
  ref: 'key_parse_once',
  kind: 'key',
  orgId: 'org-1',
  role: 'member',
  tier: 'enterprise',
  readOnly: false,
  rateLimitPerMinute: null,
};
const subgraphQueries: string[] = [];
let keyLookups = 0;
const services = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/internal/verify-key') {
      keyLookups += 1;
      const asked = (JSON.parse(body) as { key: string }).key;
      res.end(JSON.stringify({ principal: asked === key ? principal : null }));
      return;
    }
    subgraphQueries.push((JSON.parse(body) as { query: string }).query);
    res.end(JSON.stringify({ data: { feedbackItem: null } }));
  });
});

const gateway = gatewayOverStandIn(services);

const send = async (query: string, variables: Record<string, unknown> = {}) => {
  const response = await fetch(`${gateway().url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: unknown;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
};

/** The gateway's own count of parses, from its /metrics. */
const parses = async () => {
  const text = await (await fetch(`${gateway().url}/metrics`)).text();
  const count = (by: string) =>
    Number(new RegExp(`fi_gateway_document_parses_total\\{by="${by}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { gate: count('gate'), apollo: count('apollo') };
};

describe('a document parsed once, a key looked up once', () => {
  test('when a new document is sent three times, then the gateway parses it once and asks who the key is once', async () => {
    const before = await parses();
    const lookupsBefore = keyLookups;
    const query = 'query ParseOnce($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { id title } }';
    for (const id of ['a', 'b', 'c']) expect((await send(query, { k: key, id })).errors).toBeUndefined();
    expect(await parses()).toEqual({ gate: before.gate + 1, apollo: before.apollo });
    expect(keyLookups - lookupsBefore).toBe(1);
  });

  test('when the key is written in the document, then the subgraph gets its id, and the document is still parsed once', async () => {
    const before = await parses();
    const answer = await send(`{ feedbackItem(apiKey: "${key}", id: "inline") { id } }`);
    expect(answer.errors).toBeUndefined();
    expect(await parses()).toEqual({ gate: before.gate + 1, apollo: before.apollo });
    const sent = subgraphQueries[subgraphQueries.length - 1];
    expect(sent).toContain(`"${principal.ref}"`);
    expect(sent).not.toContain(key);
  });

  test('when a document is not valid, then Apollo parses it again to report its errors as before', async () => {
    const before = await parses();
    const answer = await send(`query($k: String!) { feedbackItem(apiKey: $k, id: "x") { nope } }`, { k: key });
    expect(answer.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Cannot query field "nope"'),
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(await parses()).toEqual({ gate: before.gate + 1, apollo: before.apollo + 1 });
  });
});
