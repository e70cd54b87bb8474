import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { Gauge, Histogram, type Registry } from 'prom-client';
import { mongoPoolStats, type Connection } from '../mongo';
import { LATENCY_BUCKETS } from './registry';
import { operationLabel } from './operationLabel';

/** Request latency per operation, as the subgraph itself sees it. */
export function useSubgraphMetrics(registry: Registry): ApolloServerPlugin<BaseContext> {
  const duration = new Histogram({
    name: 'fi_subgraph_request_duration_seconds',
    help: 'Time to answer one GraphQL request, by root fields',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    async requestDidStart() {
      const stop = duration.startTimer();
      return {
        async willSendResponse({ operation }) {
          stop({ operation: operationLabel(operation ?? undefined) });
        },
      };
    },
  };
}

/** Mongo connection-pool figures, read at scrape time: how many connections exist and are busy. */
export function watchMongoPool(connection: Connection, registry: Registry): void {
  new Gauge({
    name: 'fi_mongo_pool_connections',
    help: 'MongoDB pool connections by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = mongoPoolStats(connection);
      this.set({ state: 'open' }, stats.open);
      this.set({ state: 'in_use' }, stats.inUse);
    },
  });
}
