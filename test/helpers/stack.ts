import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { loadAccountsConfig, startAccountsService } from '@fi/accounts';
import { loadContactsConfig, startContactsService } from '@fi/contacts';
import { loadFeedbackConfig, loadFeedbackWorkerConfig, startFeedbackService, startFeedbackWorker } from '@fi/feedback';
import { loadGatewayConfig, startGateway } from '@fi/gateway';
import { CLI_MAX_TIME_MS } from '@fi/cli';
import { loadIdentityConfig, startIdentityService, type RunningIdentityService } from '@fi/identity';
import {
  loadIntegrationsConfig,
  loadIntegrationsReceiverConfig,
  loadIntegrationsWorkerConfig,
  startIntegrationsReceiver,
  startIntegrationsService,
  startIntegrationsWorker,
  type RunningReceiver,
} from '@fi/integrations';
import { createLogger, type RunningHttpServer } from '@fi/shared';
import { type Connection, connectMongo, type RunningWorker } from '@fi/shared/database';
import { createKeyIn, type NewKey } from './keys';

export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: {
    data?: T | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
    extensions?: Record<string, unknown>;
  };
}

export interface Stack {
  gatewayUrl: string;
  subgraphs: {
    feedback: RunningHttpServer;
    contacts: RunningHttpServer;
    accounts: RunningHttpServer;
    integrations: RunningHttpServer;
  };
  /** The integrations service's receiver (platforms' events) and worker (makes their items). */
  integrationsReceiver: RunningReceiver;
  integrationsWorker: RunningWorker;
  /** The feedback service's worker (its background work), apart from the subgraph as in production; null when the test runs its own. */
  worker: RunningHttpServer | null;
  gateway: RunningHttpServer;
  identity: RunningIdentityService;
  /** What another gateway of a test needs to verify keys and sign for this stack's subgraphs. */
  identityEnv: { IDENTITY_URL: string; IDENTITY_SIGNING_KEYS: string | undefined };
  mongodbUri: string;
  /** Where this stack's gateway counts rate limits in Redis. */
  redisPrefix: string;
  /** POSTs a GraphQL request to the gateway (or to `url`). */
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: { url?: string; headers?: Record<string, string> },
  ): Promise<GraphQLResponse<T>>;
  /** Creates a key (enterprise unless told) for a fresh organization (or `orgId`); returns the secret and the org. */
  createKey(options?: NewKey): Promise<{ key: string; orgId: string; id: string }>;
  connect(database: 'feedback' | 'contacts' | 'accounts' | 'identity' | 'integrations'): Promise<Connection>;
  close(): Promise<void>;
}

// Organizations are named with the key helpers (which need them first); tests take them from either.
export { newOrgId } from './keys';

/** A database name no other test uses, for tests whose scans or background work must see only their own data. */
export const ownDatabaseName = (prefix: string) => `${prefix}_${randomUUID().slice(0, 8)}`;

export interface StackOptions {
  /** Receives every service's JSON log lines (at info level), for tests that read the logs. */
  logSink?: Writable;
  /** Databases of this stack's own instead of the shared ones (`connect` follows), e.g. for background work. */
  databases?: Partial<Record<'feedback' | 'contacts' | 'accounts' | 'integrations', string>>;
  /** The gateway's port, when a test must know its address before the services start (export links). */
  gatewayPort?: number;
  /** False: no feedback worker in this process (the test runs one as a process of its own). */
  worker?: boolean;
  /** The worker's alert detector's now (tests of alerts move it to another day instead of waiting). */
  clock?: () => Date;
}

/** The whole API in this process on ephemeral ports; `env` overrides any service setting. */
export async function startStack(env: NodeJS.ProcessEnv = {}, options: StackOptions = {}): Promise<Stack> {
  const mongodbUri = env.MONGODB_URI ?? process.env.MONGODB_URI;
  if (!mongodbUri) throw new Error('MONGODB_URI is not set: the jest global setup starts the test database');
  const logger = options.logSink
    ? createLogger('test', 'info', options.logSink)
    : createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  // Each stack counts rate limits under its own Redis prefix, so test files never share a budget.
  const base = {
    MONGODB_URI: mongodbUri,
    PORT: '0',
    AUTH_CACHE_TTL_MS: '0',
    WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
    INTEGRATIONS_SECRET_KEY: process.env.INTEGRATIONS_SECRET_KEY,
    IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
    REDIS_URL: process.env.REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: `fi-test:${randomUUID()}`,
    // Tests are about behaviour, not the production time limits: on a loaded machine the test database
    // and Redis take seconds for what takes milliseconds idle. Tests about the limits set their own.
    SUBGRAPH_TIMEOUT_MS: '30000',
    MONGODB_MAX_TIME_MS: '25000',
    // Past REDIS_TIMEOUT_MS a gateway counts in its local insurance limiter, which is not exact.
    REDIS_TIMEOUT_MS: '10000',
    // The background theme computation visits every organization of its database: only the tests of
    // themes turn it on, on a database of their own.
    THEMES_INTERVAL_MS: '0',
    // The search indexer too (searches then match every item by regex, as the unindexed tail): the
    // tests of the index run its passes themselves.
    SEARCH_INDEX_INTERVAL_MS: '0',
    // Alerts read every organization of their database too: only the tests of alerts turn them on.
    ALERTS_INTERVAL_MS: '0',
    // Bulkheads queue a request only briefly; tests that send bursts from one organization or key on a
    // loaded machine must not be refused for the machine's slowness. Tests about the bulkheads set their own.
    ORG_QUEUE_WAIT_MS: '30000',
    KEY_QUEUE_WAIT_MS: '30000',
    // Each stack's SMTP listener on a port of its own (stack.integrationsReceiver.mailUrl).
    INBOUND_SMTP_PORT: '0',
    // No pulling from Zendesk or HubSpot (there is no internet): the tests of pulls turn it on, against
    // local servers, on an integrations database of their own.
    PULL_POLL_MS: '0',
    ...env,
  };
  const redisPrefix = base.RATE_LIMIT_REDIS_PREFIX as string;
  // An integrations database of each stack's own unless told: every stack runs an integrations worker, which
  // takes any pending event of its database and makes its item in its own stack's feedback service.
  const databases = { integrations: ownDatabaseName('integrations'), ...options.databases };
  const own = (service: keyof typeof databases) =>
    databases[service] ? { ...base, MONGODB_DB: databases[service] } : base;
  // First: the feedback worker asks it who opted in to alert emails, the integrations service records audit entries.
  const identity = await startIdentityService(loadIdentityConfig(base), logger);
  const feedback = await startFeedbackService(loadFeedbackConfig(own('feedback')), logger);
  const contacts = await startContactsService(loadContactsConfig(own('contacts')), logger);
  const accounts = await startAccountsService(loadAccountsConfig(own('accounts')), logger);
  const serviceUrls = {
    FEEDBACK_URL: `${feedback.url}/graphql`,
    CONTACTS_URL: `${contacts.url}/graphql`,
    ACCOUNTS_URL: `${accounts.url}/graphql`,
  };
  const integrations = await startIntegrationsService(
    loadIntegrationsConfig({ ...own('integrations'), ...serviceUrls, IDENTITY_URL: identity.url }),
    logger,
  );
  // After the integrations service: its alerts ask it how the connected platforms send.
  const worker =
    options.worker === false
      ? null
      : await startFeedbackWorker(
          loadFeedbackWorkerConfig({
            IDENTITY_URL: identity.url,
            INTEGRATIONS_URL: integrations.url,
            ...own('feedback'),
          }),
          logger,
          { clock: options.clock },
        );
  const integrationsReceiver = await startIntegrationsReceiver(
    loadIntegrationsReceiverConfig(own('integrations')),
    logger,
  );
  const integrationsWorker = await startIntegrationsWorker(
    loadIntegrationsWorkerConfig({ ...own('integrations'), ...serviceUrls, INTEGRATIONS_INBOX_POLL_MS: '100' }),
    logger,
  );
  const identityEnv = { IDENTITY_URL: identity.url, IDENTITY_SIGNING_KEYS: base.IDENTITY_SIGNING_KEYS };
  const gateway = await startGateway(
    loadGatewayConfig({
      ...base,
      ...identityEnv,
      ...(options.gatewayPort ? { PORT: String(options.gatewayPort) } : {}),
      ...serviceUrls,
      INTEGRATIONS_URL: `${integrations.url}/graphql`,
    }),
    logger,
  );
  const connections: Connection[] = [];
  const connect = async (database: keyof typeof databases | 'identity') => {
    // The CLI's time limit: tests use these connections for what an operator's tools do.
    const connection = await connectMongo(mongodbUri, (database !== 'identity' && databases[database]) || database, {
      maxTimeMs: CLI_MAX_TIME_MS,
    });
    connections.push(connection);
    return connection;
  };
  const identityDatabase = await connect('identity');

  return {
    gatewayUrl: `${gateway.url}/graphql`,
    subgraphs: { feedback, contacts, accounts, integrations },
    integrationsReceiver,
    integrationsWorker,
    worker,
    gateway,
    identity,
    identityEnv,
    mongodbUri,
    redisPrefix,
    async gql(query, variables, options = {}) {
      const response = await fetch(options.url ?? `${gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify({ query, variables }),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as GraphQLResponse<never>['body'],
      };
    },
    createKey(options = {}) {
      // Unlimited unless a test is about limits: most tests send more than a free key's 60 requests.
      return createKeyIn(identityDatabase, {
        ...options,
        tier: options.tier ?? (options.orgId ? undefined : 'enterprise'),
      });
    },
    connect,
    async close() {
      await gateway.close(1_000);
      await Promise.all([
        feedback.close(1_000),
        worker?.close(1_000),
        contacts.close(1_000),
        accounts.close(1_000),
        integrations.close(1_000),
        integrationsReceiver.close(1_000),
        integrationsWorker.close(1_000),
        identity.close(1_000),
      ]);
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
