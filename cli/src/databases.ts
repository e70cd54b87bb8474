import { accountsConfigSchema } from '@fi/accounts';
import { contactsConfigSchema } from '@fi/contacts';
import { feedbackConfigSchema } from '@fi/feedback';
import { identityConfigSchema } from '@fi/identity';
import { integrationsConfigSchema } from '@fi/integrations';
import { connectMongo, connectSibling, type Connection } from '@fi/shared/database';
import { readRunningStack } from './stack/stackFile';

export interface Databases {
  feedback: Connection;
  contacts: Connection;
  accounts: Connection;
  identity: Connection;
  integrations: Connection;
  close(): Promise<void>;
}

/** MONGODB_URI when set; otherwise the embedded database of a running `npm start`. */
export function resolveMongoUri(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MONGODB_URI) return env.MONGODB_URI;
  const stack = readRunningStack();
  if (stack) return stack.mongodbUri;
  throw new Error('No database: set MONGODB_URI, or start the stack with "npm start" first');
}

/**
 * The time limit of one CLI database operation: an import or seed writes batches of thousands of
 * records, which take longer than any one API request may, and no client is waiting to give up.
 */
export const CLI_MAX_TIME_MS = 120_000;

/** The databases the services use, under the same names and overrides as the services themselves. */
export async function openDatabases(env: NodeJS.ProcessEnv = process.env): Promise<Databases> {
  const uri = resolveMongoUri(env);
  const feedback = await connectMongo(uri, env.FEEDBACK_MONGODB_DB ?? feedbackConfigSchema.mongodbDb.default, {
    maxTimeMs: CLI_MAX_TIME_MS,
  });
  const sibling = (name: string) => connectSibling(feedback, uri, uri, name);
  const contacts = await sibling(env.CONTACTS_MONGODB_DB ?? contactsConfigSchema.mongodbDb.default);
  const accounts = await sibling(env.ACCOUNTS_MONGODB_DB ?? accountsConfigSchema.mongodbDb.default);
  const identity = await connectSibling(
    feedback,
    uri,
    env.IDENTITY_MONGODB_URI ?? '',
    env.IDENTITY_MONGODB_DB ?? identityConfigSchema.mongodbDb.default,
    {
      maxTimeMs: CLI_MAX_TIME_MS,
    },
  );
  const integrations = await connectSibling(
    feedback,
    uri,
    env.INTEGRATIONS_MONGODB_URI ?? '',
    env.INTEGRATIONS_MONGODB_DB ?? integrationsConfigSchema.mongodbDb.default,
    { maxTimeMs: CLI_MAX_TIME_MS },
  );
  return {
    feedback,
    contacts,
    accounts,
    identity,
    integrations,
    close: async () => {
      await integrations.close();
      await identity.close();
      await feedback.close();
    },
  };
}

/**
 * The API-key store every service read before the identity service existed (AUTH_MONGODB_URI,
 * AUTH_MONGODB_DB as they were configured then), for the one-time migration of its keys.
 */
export async function openLegacyKeyStore(
  db: Databases,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ connection: Connection; close(): Promise<void> }> {
  const uri = resolveMongoUri(env);
  const own = env.AUTH_MONGODB_URI && env.AUTH_MONGODB_URI !== uri;
  const connection = await connectSibling(db.feedback, uri, env.AUTH_MONGODB_URI ?? '', env.AUTH_MONGODB_DB ?? 'auth', {
    maxTimeMs: CLI_MAX_TIME_MS,
  });
  // A database on the same server shares the pool, which closes with the others.
  return { connection, close: async () => (own ? connection.close() : undefined) };
}
