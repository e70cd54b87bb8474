import type { Logger } from '../logger';
import type { Connection } from '../data/mongo';
import type { RouteHandler } from '../http/graphqlHttpServer';
import { EXPORT_DOWNLOAD_PATH } from './downloadPath';
import { exportDownloadRoute } from './exportDownload';
import { ExportJobStore, type ExportJobDocument } from '../data/exportJobStore';
import { exportOperations } from './exportOperations';
import type { ExportSource } from './exportSource';
import { ExportWorker, type ExportConfig } from './exportWorker';

/** A service's exports of its resource: the operations its resolvers call, its download route, its worker. */
export async function startExports(
  connection: Connection,
  source: ExportSource,
  config: ExportConfig,
  logger: Logger,
  onFinished?: (job: ExportJobDocument) => Promise<void>,
) {
  const store = new ExportJobStore(connection);
  await Promise.all([store.ensureIndexes(), source.ensureIndexes()]);
  const worker = new ExportWorker(store, source, config, logger, onFinished);
  worker.start();
  return {
    operations: exportOperations(store, source, config, () => worker.wake()),
    routes: { [EXPORT_DOWNLOAD_PATH]: exportDownloadRoute(store, logger) } as Record<string, RouteHandler>,
    close: () => worker.close(),
  };
}

export type ServiceExports = Awaited<ReturnType<typeof startExports>>;
