/**
 * What the other workspaces may import from `@fi/shared`: everything here runs without a database driver,
 * so the gateway, the CLI's plain commands and the web application's server load no mongoose. What opens
 * or works on a database (the connection, repositories' helpers, a subgraph server with its database,
 * exports) is `@fi/shared/database` (`./database.ts`); test/structure.test.ts fails when the gateway's
 * imports reach mongoose or the driver.
 */

// Errors and their answers
export { appError, badRequest, ErrorCode, forbidden, notFound, unauthenticated, withHttpStatus } from './errors';
export { createFormatError } from './formatError';
export {
  onlyUnavailable,
  SERVICE_UNAVAILABLE_MESSAGE,
  UNAVAILABLE_HTTP,
  unavailableError,
  unavailableHttpError,
} from './unavailable';
export { useErrorReporting } from './useErrorReporting';

// Configuration, logging, the process
export {
  commonConfigSchema,
  ConfigError,
  DEFAULT_MAX_TIME_MS,
  identitySigningConfigSchema,
  loadConfig,
  mongoClientConfigSchema,
  mongoClientOptions,
  parse,
  serviceConfigSchema,
  type ConfigField,
  type ConfigOf,
} from './config';
export { createLogger, type Logger } from './logger';
export { runService } from './main';
export { runWorkerProcess, workerPriorityConfigSchema } from './workerPriority';

// Secrets sealed at rest
export { newSigningSecret, parseSecretKey, SecretBox, type SealedSecret } from './secrets/secretBox';

// Callers: API keys, the identity the gateway signs, members' roles
export { generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey, TIERS, type Tier } from './auth/apiKey';
export {
  IDENTITY_HEADER,
  parseSigningKeys,
  ROLES,
  signIdentity,
  type MemberPrincipal,
  type Principal,
  type Role,
  type SigningKeyring,
} from './auth/signedIdentity';
export type { Caller } from './auth/authenticator';
export {
  csrfRequired,
  DIRECTORY_WRITERS,
  INTEGRATION_MANAGERS,
  requireDirectoryWriter,
  requireMember,
  requireMemberRole,
  signInRequired,
} from './auth/memberAccess';

// HTTP and GraphQL serving
export {
  createGraphQLHttpHandler,
  graphqlEndpoint,
  listenHttp,
  type GraphQLEndpoint,
  type RequestInfo,
  type RequestOutcome,
  type RouteHandler,
  type RunningHttpServer,
} from './http/graphqlHttpServer';
export { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from './http/headers';
export { checkReadiness, type ReadinessCheck } from './http/readiness';
export { HttpError, jsonNestsDeeperThan, MAX_BODY_DEPTH, readJsonBody } from './http/body';
export { subgraphSchema, type ServiceConfig, type SubgraphContext } from './subgraph';
export { Bulkhead, BulkheadRefused } from './bulkhead';
export { runPasses, type BackgroundWorker, type WakeableWorker } from './backgroundPasses';

// Metrics
export { createRegistry, LATENCY_BUCKETS, metricsRoute } from './metrics/registry';
export { operationLabel } from './metrics/operationLabel';
export { useRequestOutcome } from './metrics/useRequestOutcome';

// Arguments, pages, cursors and ids
export { isPlainObject } from './scalars';
export { MAX_TAKE, toPage, type Page, type PageResult } from './pagination';
export { TIME_ID_CURSOR_LENGTH, timeIdCursor } from './timeIdCursor';
export { firstIdHexAt } from './ids';
export { escapeRegExp, requireOneOf, substringPattern } from './validation';
export { requireMaxLength, TEXT_ARGUMENT_MAX, textArgumentMax } from './textArguments';

// Records' rules, links between records, imports
export { describeProblem, RecordRules, valueOrBadRequest, type Checked, type FieldProblem } from './rules/recordRules';
export { companyDomainKey, companyDomainOfEmail, emailDomainOf, matchKey } from './links/linkKeys';
export { byArguments, EMPTY_GROUP_PAGE, firstByKey, groupedPages } from './links/groupedPages';
export { orgKey, scopedReference } from './links/entityScope';
export { ADMIN_MAX_BODY_BYTES, type CsvColumns } from './import/csvImport';
export { directoryAdminOperations, type DirectoryRecords } from './directoryAdmin';

// The change feed, and what an export reads
export {
  CHANGES_KEPT_MS,
  changeFeed,
  changesCursorAt,
  changesSettleMs,
  REMOVAL_GRACE_MS,
  type ChangeEntry,
  type ChangeFeed,
  type ChangePosition,
} from './changes/changeFeed';
export { recordChangeSources } from './changes/changeSources';
export { createdStamp, updatedStamp } from './changes/changeStamp';
export {
  EXPORT_CURSOR_OPTIONS,
  EXPORT_READ_OPTIONS,
  type ExportRecord,
  type ExportSource,
} from './export/exportSource';
export { directoryExportSource } from './export/directoryExportSource';
export {
  EXPORT_DOWNLOAD_PATH,
  EXPORT_KEY_HEADER,
  EXPORT_ORG_HEADER,
  sendUnknownExportLink,
} from './export/downloadPath';
