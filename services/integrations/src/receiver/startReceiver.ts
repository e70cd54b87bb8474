import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  checkReadiness,
  createRegistry,
  HttpError,
  listenHttp,
  metricsRoute,
  mongoClientOptions,
  SecretBox,
  type Logger,
} from '@fi/shared';
import { connectMongo, pingMongo, watchMongoPool, type RunningWorker } from '@fi/shared/database';
import type { IntegrationsReceiverConfig } from '../config';
import { ConnectionStore } from '../data/connectionStore';
import { InboxStore } from '../data/inboxStore';
import { HOOK_PATH, hookHandler } from './hookHandler';

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};

/**
 * The receiver (src/receiverMain.ts): the service's one process platforms reach from the internet, apart
 * from the subgraph (which only the gateway calls). It answers POST /hooks/<token> (stores the event and
 * acknowledges it; the worker makes the item), and its probes and metrics.
 */
export async function startIntegrationsReceiver(
  config: IntegrationsReceiverConfig,
  logger: Logger,
): Promise<RunningWorker> {
  const connection = await connectMongo(config.mongodbUri, config.mongodbDb, mongoClientOptions(config));
  const registry = createRegistry('integrations-receiver');
  watchMongoPool(connection, registry);
  const connections = new ConnectionStore(connection);
  const inbox = new InboxStore(connection);
  try {
    await Promise.all([connections.ensureIndexes(), inbox.ensureIndexes()]);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const hooks = hookHandler({
    connections,
    inbox,
    box: new SecretBox(config.integrationsSecretKey, 'INTEGRATIONS_SECRET_KEY'),
    maxBytes: config.hookMaxBytes,
    logger,
  });
  const metrics = metricsRoute(registry);

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const hook = HOOK_PATH.exec(path);
    const started = Date.now();
    try {
      if (hook) await hooks(req, res, hook[1]);
      else if (req.method !== 'GET') send(res, 405, { error: `${req.method ?? ''} not allowed` });
      else if (path === '/health') send(res, 200, { status: 'ok' });
      else if (path === '/ready') {
        const report = await checkReadiness({ database: () => pingMongo(connection) });
        send(res, report.ready ? 200 : 503, report);
      } else if (path === '/metrics') await metrics(req, res);
      else send(res, 404, { error: `No route GET ${path}` });
    } catch (error) {
      if (error instanceof HttpError) send(res, error.status, { error: error.message }, error.headers);
      else {
        logger.error({ err: error }, 'unhandled error in the receiver');
        if (!res.headersSent) send(res, 500, { error: 'Internal server error' });
        else res.end();
      }
    } finally {
      // The token is the connection's credential: the log names the route, never the path.
      if (hook)
        logger.info(
          { method: req.method, route: '/hooks/:token', status: res.statusCode, durationMs: Date.now() - started },
          'hook request',
        );
    }
  };
  const http = await listenHttp(handler, config.port, config.host);
  logger.info({ url: http.url }, 'integrations receiver listening');
  return {
    ...http,
    connection,
    close: async (timeoutMs) => {
      await http.close(timeoutMs);
      await connection.close();
    },
  };
}
