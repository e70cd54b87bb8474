/** What other workspaces (the CLI, tests) may use of the identity service; the process entry is main.ts. */
export { loadIdentityConfig, identityConfigSchema, type IdentityConfig } from './config';
export { startIdentityService, type RunningIdentityService } from './server';
export { openRepositories, type IdentityRepositories } from './data/repositories';
export type { ApiKeyRecord, StoredApiKey } from './data/apiKeyRepository';
export type { AuditEntry } from './data/auditRepository';
export { KeyService, type KeyInput } from './domain/keyService';
export { MemberService } from './domain/memberService';
export { OPERATOR, type Actor } from './domain/actor';
export { recordServiceAudit, SERVICE_AUDIT_ACTIONS, type ServiceAuditEntry } from './domain/serviceAudit';
export { VERIFY_KEY_PATH } from './http';
export { migrateLegacyKeys, type MigrationReport } from './domain/keyMigration';
export { openScimTokens, SCIM_PATH, ScimTokenService, type ScimTokenRecord } from './scim';
export {
  checkDomain,
  OIDC_CALLBACK_PATH,
  SAML_ACS_PATH,
  SAML_METADATA_PATH,
  openSsoRepositories,
  ssoConfigSchema,
  SsoSettings,
  type SsoRepositories,
} from './sso';
export { SignInThrottle } from './domain/signInThrottle';
export { openTwoFactor, TwoFactorService } from './twoFactor';
