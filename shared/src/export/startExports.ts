import type { Logger } from '../logger';
import type { Connection } from '../data/mongo';
import type { RouteHandler } from '../http/graphqlHttpServer';
import { EXPORT_DOWNLOAD_PATH } from './downloadPath';
import { exportDownloadRoute } from './exportDownload';
import { ExportJobStore, type ExportJobDocument } from '../data/exportJobStore';
import { exportOperations } from './exportOperations';
import type { ExportSource } from './exportSource';
import { ExportWorker, type ExportConfig } from './exportWorker';

/**
 * A service's exports as its API serves them: the operations its resolvers call and its download route.
 * `wake` tells a worker in the same process that a job was queued; without one, a worker elsewhere
 * finds it at its next poll (EXPORT_POLL_MS).
 */
export async function exportService(
  connection: Connection,
  source: ExportSource,
  config: ExportConfig,
  logger: Logger,
  wake: () => void = () => undefined,
) {
  const store = new ExportJobStore(connection);
  await Promise.all([store.ensureIndexes(), source.ensureIndexes()]);
  return {
    operations: exportOperations(store, source, config, wake),
    routes: { [EXPORT_DOWNLOAD_PATH]: exportDownloadRoute(store, logger) } as Record<string, RouteHandler>,
  };
}

/** The worker that runs a service's queued exports (and resumes those whose instance died). */
export async function startExportWorker(
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
  return worker;
}

/** A service's exports in one process: the operations its resolvers call, its download route, its worker. */
export async function startExports(
  connection: Connection,
  source: ExportSource,
  config: ExportConfig,
  logger: Logger,
  onFinished?: (job: ExportJobDocument) => Promise<void>,
) {
  const worker = await startExportWorker(connection, source, config, logger, onFinished);
  return {
    ...(await exportService(connection, source, config, logger, () => worker.wake())),
    close: () => worker.close(),
  };
}

export type ServiceExports = Awaited<ReturnType<typeof startExports>>;
