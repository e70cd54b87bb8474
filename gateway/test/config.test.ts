import { loadGatewayConfig } from '../src/config';

const base = { IDENTITY_SIGNING_KEYS: `k1:${'a'.repeat(32)}` };

describe('the gateway configuration', () => {
  test('when nothing is set, then the database time limit is below the subgraph timeout', () => {
    const config = loadGatewayConfig(base);
    expect(config.mongodbMaxTimeMs).toBe(8_000);
    expect(config.mongodbMaxTimeMs).toBeLessThan(config.subgraphTimeoutMs);
  });

  test('when the database time limit is not below the subgraph timeout, then the gateway refuses to start and says why', () => {
    expect(() => loadGatewayConfig({ ...base, MONGODB_MAX_TIME_MS: '10000' })).toThrow(
      /MONGODB_MAX_TIME_MS=10000 must be below SUBGRAPH_TIMEOUT_MS=10000/,
    );
    expect(() =>
      loadGatewayConfig({ ...base, MONGODB_MAX_TIME_MS: '20000', SUBGRAPH_TIMEOUT_MS: '30000' }),
    ).not.toThrow();
  });
});
