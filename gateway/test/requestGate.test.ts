import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema } from 'graphql';
import { Bulkhead, createLogger, createRegistry, type RequestInfo } from '@fi/shared';
import { IdentityClient } from '../src/auth/identityClient';
import { DocumentCache } from '../src/auth/documentCache';
import { keyedRootFields } from '../src/auth/keyedRootFields';
import { GatewayMetrics } from '../src/metrics/gatewayMetrics';
import { BusyBackoff } from '../src/rateLimit/busyBackoff';
import { InvalidKeyGuard } from '../src/rateLimit/invalidKeyGuard';
import { KeyRateLimits } from '../src/rateLimit/keyRateLimits';
import { PointsBudget } from '../src/rateLimit/pointsBudget';
import { WindowCounter } from '../src/rateLimit/windowCounter';
import { createRequestGate } from '../src/requestGate';

const schema = buildSchema('type Query { feedbackItems(apiKey: String!): Int }');
const logger = createLogger('test', 'silent');

/** An identity service that knows no key and counts the keys it is asked about. */
let lookups = 0;
let identityUrl = '';
const identityService = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    lookups += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ principal: null }));
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => identityService.listen(0, '127.0.0.1', resolve));
  identityUrl = `http://127.0.0.1:${(identityService.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => identityService.close(() => resolve())));

/** The gate in front of that identity service. */
function gateWithCountingIdentity(invalidKeyLimit: number) {
  const before = lookups;
  const identity = new IdentityClient({ url: identityUrl, timeoutMs: 5_000, cacheTtlMs: 60_000 });
  const counter = new WindowCounter({ redis: null, keyPrefix: 'test', windowSeconds: 60, instances: () => 1, logger });
  const keyLimits = new KeyRateLimits(counter, { free: 60, pro: 300, enterprise: null }, 60);
  const gate = createRequestGate({
    documents: new DocumentCache(),
    keyedFields: () => keyedRootFields(schema),
    pricedSchema: () => ({ schema, directives: { weights: new Map(), listSizes: new Map() } }),
    pointsBudget: new PointsBudget(counter, keyLimits, 10, 60),
    busyBackoff: new BusyBackoff(),
    keyConcurrency: new Bulkhead({ concurrency: 10, queue: 10, maxWaitMs: 1_000 }),
    identity,
    keyLimits,
    invalidKeyGuard: new InvalidKeyGuard(counter, invalidKeyLimit),
    metrics: new GatewayMetrics(createRegistry('gateway-test')),
    trustProxy: false,
  });
  const send = (body: unknown, remoteAddress = '192.0.2.7') =>
    gate({
      requestId: 'r',
      headers: {},
      body,
      logger,
      remoteAddress,
      outcome: { operation: 'invalid', code: 'OK' },
      onDone: () => undefined,
    } satisfies RequestInfo).then(
      () => 'passed',
      (error: { extensions: { code: string } }) => error.extensions.code,
    );
  return { send, reads: () => lookups - before, close: () => identity.close() };
}

const guess = (i: number) => ({
  query: 'query($k: String!) { feedbackItems(apiKey: $k) }',
  variables: { k: `fik_guess_${i}_wellformed` },
});

describe('the invalid-key guard', () => {
  test('when an address is blocked, then its further guesses are refused without asking the identity service', async () => {
    const { send, reads, close } = gateWithCountingIdentity(3);
    const answers = [];
    for (let i = 0; i < 50; i += 1) answers.push(await send(guess(i)));
    expect(answers.slice(0, 3)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED']);
    expect(new Set(answers.slice(4))).toEqual(new Set(['RATE_LIMITED']));
    expect(reads()).toBe(4);
    // Another address is not blocked.
    expect(await send(guess(99), '198.51.100.1')).toBe('UNAUTHENTICATED');
    await close();
  });

  test('when requests carry no key at all (introspection, unparsable documents), then the guard counts them too', async () => {
    const { send, close } = gateWithCountingIdentity(3);
    const answers = [];
    for (const body of [
      { query: '{ __schema { types { name } } }' },
      { query: '{ __typename }' },
      { query: '{ broken' },
      { query: '{ __typename }' },
      {},
    ]) {
      answers.push(await send(body));
    }
    expect(answers).toEqual(['passed', 'passed', 'passed', 'RATE_LIMITED', 'RATE_LIMITED']);
    await close();
  });
});
