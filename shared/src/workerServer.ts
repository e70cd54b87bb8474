import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { mongoClientOptions, type ConfigOf, type mongoClientConfigSchema } from './config';
import { connectMongo, pingMongo, type Connection } from './data/mongo';
import { listenHttp, type RunningHttpServer } from './http/graphqlHttpServer';
import { checkReadiness } from './http/readiness';
import type { Logger } from './logger';
import { watchMongoPool } from './metrics/mongoPoolMetrics';
import { createRegistry, metricsRoute } from './metrics/registry';

export interface WorkerDefinition {
  /** The process's name in metrics (the `service` label) and logs, e.g. `feedback-worker`. */
  name: string;
  /** Starts the background work once the database is connected; `registry` takes the work's own metrics. */
  setUp(connection: Connection, registry: Registry): Promise<{ close(): Promise<void> }>;
}

export interface RunningWorker extends RunningHttpServer {
  connection: Connection;
}

/** The settings a worker process needs of a service's: where it listens (for its probes) and its database. */
export type WorkerConfig = ConfigOf<typeof mongoClientConfigSchema> & {
  port: number;
  host: string;
  mongodbUri: string;
  mongodbDb: string;
};

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/**
 * A service's background work as its own process: connected to the service's database, it answers only
 * its probes and its metrics (`/health`: the process runs; `/ready`: its database answers; `/metrics`),
 * never a request of the API, so it can be stopped, restarted and scaled apart from the API's processes.
 */
export async function startWorker(
  definition: WorkerDefinition,
  config: WorkerConfig,
  logger: Logger,
): Promise<RunningWorker> {
  const connection = await connectMongo(config.mongodbUri, config.mongodbDb, mongoClientOptions(config));
  const registry = createRegistry(definition.name);
  watchMongoPool(connection, registry);
  let work: { close(): Promise<void> };
  try {
    work = await definition.setUp(connection, registry);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const metrics = metricsRoute(registry);
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (req.method !== 'GET') sendJson(res, 405, { error: `${req.method ?? ''} not allowed` });
      else if (path === '/health') sendJson(res, 200, { status: 'ok' });
      else if (path === '/ready') {
        const report = await checkReadiness({ database: () => pingMongo(connection) });
        sendJson(res, report.ready ? 200 : 503, report);
      } else if (path === '/metrics') await metrics(req, res);
      else sendJson(res, 404, { error: `No route GET ${path}` });
    } catch (error) {
      logger.error({ err: error }, 'unhandled error in the worker probe handler');
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal server error' });
      else res.end();
    }
  };
  const http = await listenHttp(handler, config.port, config.host);
  logger.info({ url: http.url }, `${definition.name} running (health, readiness and metrics on this address)`);
  return {
    ...http,
    connection,
    close: async (timeoutMs) => {
      await http.close(timeoutMs);
      await work.close();
      await connection.close();
    },
  };
}
