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
export { startIntegrationsReceiver } from './receiver';
export { startIntegrationsWorker } from './background';
export { KINDS, type Kind, type PublicConnection } from './model/connection';
export { identityAudit } from './ports';
export type { AuditPort, ChangeActor } from './domain/auditTrail';
