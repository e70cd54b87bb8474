// The integrations service's public face: what the CLI, the tests and the bench may use. The process entries
// are main.ts (the API), receiverMain.ts (what platforms reach) and worker.ts (the background work).
export {
  integrationsConfigSchema,
  integrationsReceiverConfigSchema,
  integrationsWorkerConfigSchema,
  loadIntegrationsConfig,
  loadIntegrationsReceiverConfig,
  loadIntegrationsWorkerConfig,
  type IntegrationsConfig,
  type IntegrationsReceiverConfig,
  type IntegrationsWorkerConfig,
} from './config';
export { INTEGRATIONS_SCHEMA_PATH, integrationParts, startIntegrationsService } from './server';
export { startIntegrationsReceiver, type RunningReceiver } from './receiver';
export { startIntegrationsWorker } from './background';
export { KINDS, type Kind, type PublicConnection } from './model/connection';
export { identityAudit } from './ports';
export type { AuditPort, ChangeActor } from './domain/auditTrail';
// The pull worker's records and sink, for tests that stand in for where pulled records go.
export type { PullConnection, PulledBatch, PullSink } from './pull';
