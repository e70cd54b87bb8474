/**
 * `@fi/shared/database`: what opens or works on a service's MongoDB database, so it loads mongoose and the
 * driver. A service's data layer, its server and worker entries, the CLI and tests import it; the gateway
 * never does (test/structure.test.ts follows its imports).
 */

// The connection
export { connectMongo, connectSibling, INDEX_BUILD_TIME_LIMIT, pingMongo, type Connection } from './data/mongo';
export { watchMongoPool } from './metrics/mongoPoolMetrics';

// Repositories' helpers
export { buildIndexes } from './data/buildIndexes';
export { insertUnordered } from './data/insertUnordered';
export { newObjectIdHex, objectIdOrNull } from './data/objectId';
export { IdReads } from './data/idReads';
export { OrgScopedRepository } from './data/orgScopedRepository';
export { Tombstones, type TombstoneDocument } from './data/tombstones';
export { withChangeStamp } from './data/changeStampSchema';
export { runKeysetBackfill, type BackfillOptions, type BackfillResult, type KeysetBackfill } from './data/backfill';
export { MatchKeyBackfill, type KeyedRecord } from './data/matchKeyBackfill';

// Servers and workers on a database
export { startSubgraph, type RunningSubgraph } from './subgraphServer';
export { startWorker, type RunningWorker, type WorkerConfig, type WorkerDefinition } from './workerServer';
export { directoryOperations, directoryTombstones, startDirectorySubgraph } from './directory';
export { exportService, startExports, startExportWorker, type ServiceExports } from './export/startExports';
export { publicJob, type PublicExportJob } from './export/exportOperations';
export { ExportWorker, type ExportConfig } from './export/exportWorker';
export { ExportJobStore } from './data/exportJobStore';
