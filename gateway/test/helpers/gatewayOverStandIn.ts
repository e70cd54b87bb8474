import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type RunningHttpServer } from '@fi/shared';
import { loadGatewayConfig } from '../../src/config';
import { startGateway } from '../../src/server';

/**
 * A gateway in the test's process whose identity service and subgraphs are all `standIn` (one local
 * server answering every one of them), started before the file's tests and closed after; returns the
 * running gateway's getter.
 */
export function gatewayOverStandIn(standIn: http.Server): () => RunningHttpServer {
  let gateway: RunningHttpServer | undefined;
  beforeAll(async () => {
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    const config = loadGatewayConfig({
      IDENTITY_SIGNING_KEYS: `k1:${'a'.repeat(32)}`,
      PORT: '0',
      IDENTITY_URL: url,
      FEEDBACK_URL: `${url}/graphql`,
      CONTACTS_URL: `${url}/graphql`,
      ACCOUNTS_URL: `${url}/graphql`,
      INTEGRATIONS_URL: `${url}/graphql`,
    });
    gateway = await startGateway(config, createLogger('test', 'silent'));
  });
  afterAll(async () => {
    await gateway?.close(1_000);
    await new Promise<void>((resolve) => standIn.close(() => resolve()));
  });
  return () => {
    if (!gateway) throw new Error('the gateway is not started yet');
    return gateway;
  };
}
