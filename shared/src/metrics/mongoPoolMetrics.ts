import { Gauge, type Registry } from 'prom-client';
import { mongoPoolStats, type Connection } from '../data/mongo';

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
