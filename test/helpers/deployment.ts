import { ConfigError, loadConfig, type ConfigField } from '@fi/shared';
import { accountsConfigSchema } from '@fi/accounts';
import { contactsConfigSchema } from '@fi/contacts';
import { feedbackConfigSchema, feedbackWorkerConfigSchema } from '@fi/feedback';
import { gatewayConfigSchema } from '@fi/gateway';
import { identityConfigSchema } from '@fi/identity';
import {
  integrationsConfigSchema,
  integrationsReceiverConfigSchema,
  integrationsWorkerConfigSchema,
} from '@fi/integrations';

/** What the deployment tests (docker compose, Kubernetes) know of each app service. */

export type Schema = Record<string, ConfigField<unknown>>;

export const APP_SERVICES: Record<string, { schema: Schema; entry: string }> = {
  feedback: { schema: feedbackConfigSchema, entry: 'services/feedback/src/main.ts' },
  'feedback-worker': { schema: feedbackWorkerConfigSchema, entry: 'services/feedback/src/worker.ts' },
  contacts: { schema: contactsConfigSchema, entry: 'services/contacts/src/main.ts' },
  accounts: { schema: accountsConfigSchema, entry: 'services/accounts/src/main.ts' },
  identity: { schema: identityConfigSchema, entry: 'services/identity/src/main.ts' },
  integrations: { schema: integrationsConfigSchema, entry: 'services/integrations/src/main.ts' },
  'integrations-receiver': {
    schema: integrationsReceiverConfigSchema,
    entry: 'services/integrations/src/receiverMain.ts',
  },
  'integrations-worker': { schema: integrationsWorkerConfigSchema, entry: 'services/integrations/src/worker.ts' },
  gateway: { schema: gatewayConfigSchema, entry: 'gateway/src/main.ts' },
};
export const SUBGRAPHS = ['feedback', 'contacts', 'accounts', 'integrations'];
/** What platforms reach from the internet: the integrations receiver, besides the gateway. */
export const PUBLIC_RECEIVERS = ['integrations-receiver'];
/** The services with a database of their own (the gateway has none: it asks the identity service). */
export const WITH_DATABASE = [...SUBGRAPHS, 'identity'];

export const fieldByEnv = (schema: Schema, env: string) => Object.values(schema).find((field) => field.env === env);

/**
 * How a deployment's environment for a service disagrees with its config schema: variables the schema
 * does not know, and what the service itself would refuse at start (missing required, invalid values).
 */
export function environmentProblems(
  schema: Schema,
  env: Record<string, string>,
): { unknown: string[]; refused: string[] } {
  const known = new Set(Object.values(schema).map((field) => field.env));
  const unknown = Object.keys(env).filter((key) => !known.has(key));
  try {
    loadConfig(schema, env);
    return { unknown, refused: [] };
  } catch (error) {
    if (error instanceof ConfigError) return { unknown, refused: error.problems };
    throw error;
  }
}
