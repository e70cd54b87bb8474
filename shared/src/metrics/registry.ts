import client, { Registry } from 'prom-client';
import type { RouteHandler } from '../http/graphqlHttpServer';

/** One registry per service (tests run several services in one process), with the process metrics. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  return registry;
}

export function metricsRoute(registry: Registry): RouteHandler {
  return async (_req, res) => {
    const body = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType });
    res.end(body);
  };
}

/** Buckets in seconds, from 1 ms to 10 s: API latencies live in the low milliseconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
