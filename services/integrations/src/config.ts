import {
  commonConfigSchema,
  loadConfig,
  mongoClientConfigSchema,
  parse,
  parseSecretKey,
  serviceConfigSchema,
  workerPriorityConfigSchema,
  type ConfigOf,
} from '@fi/shared';

const url = (env: string, doc: string, fallback: string) => ({
  env,
  doc,
  default: fallback,
  parse: parse.url('http:', 'https:'),
});

const service = serviceConfigSchema({ port: 4006, database: 'integrations' });

/** Every process of the service opens connections' sealed credentials. */
const secretKey = {
  integrationsSecretKey: {
    env: 'INTEGRATIONS_SECRET_KEY',
    doc: "key that encrypts connected platforms' secrets and tokens at rest: 32 bytes as 64 hex digits or base64 (required; `npm start` sets a development key)",
    parse: parseSecretKey,
  },
};

/** Where a new connection is told to send: what adding one shows (the API, the CLI). */
const addresses = {
  hookPublicUrl: url(
    'INTEGRATIONS_PUBLIC_URL',
    "public origin of the receiver, where platforms send events: connections' URLs are <origin>/hooks/<token>",
    'http://localhost:4007',
  ),
  inboundMailDomain: {
    env: 'INBOUND_MAIL_DOMAIN',
    doc: "domain of email connections' addresses, feedback+<token>@<domain>",
    default: 'localhost',
    parse: parse.string,
  },
};

/**
 * The API process (src/main.ts): the subgraph the gateway calls. Changes of connections are recorded in
 * the audit log, which the identity service keeps.
 */
export const integrationsConfigSchema = {
  ...service,
  ...secretKey,
  ...addresses,
  identityUrl: url(
    'IDENTITY_URL',
    'the identity service, which records changes of connections in the audit log',
    'http://localhost:4004',
  ),
  identityTimeoutMs: {
    env: 'IDENTITY_TIMEOUT_MS',
    doc: 'longest wait for the identity service to record an audit entry',
    default: 3_000,
    parse: parse.int(100, 60_000),
  },
};

export type IntegrationsConfig = ConfigOf<typeof integrationsConfigSchema>;

export const loadIntegrationsConfig = (env: NodeJS.ProcessEnv = process.env): IntegrationsConfig =>
  loadConfig(integrationsConfigSchema, env);

/**
 * The receiver process (src/receiver.ts): the service's one process platforms reach from the internet. It
 * stores what they send and answers; it calls no other service, so it holds no identity signing key.
 */
export const integrationsReceiverConfigSchema = {
  port: { ...service.port, doc: "HTTP port of the receiver of platforms' events (POST /hooks/<token>)", default: 4007 },
  host: service.host,
  mongodbUri: service.mongodbUri,
  mongodbDb: service.mongodbDb,
  ...mongoClientConfigSchema,
  ...commonConfigSchema,
  ...secretKey,
  hookMaxBytes: {
    env: 'INTEGRATIONS_HOOK_MAX_BYTES',
    doc: 'largest event body the receiver accepts (larger: 413)',
    default: 1024 * 1024,
    parse: parse.int(1_024, 50 * 1024 * 1024),
  },
  inboundMailDomain: addresses.inboundMailDomain,
  inboundSmtpPort: {
    env: 'INBOUND_SMTP_PORT',
    doc: "port of the receiver's SMTP listener, where email connections' mail arrives (25 on the internet; -1: none)",
    default: 2525,
    parse: parse.int(-1, 65535),
  },
  inboundMaxBytes: {
    env: 'INBOUND_MAX_BYTES',
    doc: 'largest mail the SMTP listener accepts (announced with SIZE; larger: 552)',
    default: 1024 * 1024,
    parse: parse.int(1_024, 50 * 1024 * 1024),
  },
  inboundTlsKeyFile: {
    env: 'INBOUND_TLS_KEY_FILE',
    doc: "PEM private key of the SMTP listener's certificate; with INBOUND_TLS_CERT_FILE it offers STARTTLS (unset: no STARTTLS)",
    default: '',
    parse: parse.string,
  },
  inboundTlsCertFile: {
    env: 'INBOUND_TLS_CERT_FILE',
    doc: 'PEM certificate (chain) of the SMTP listener, for STARTTLS',
    default: '',
    parse: parse.string,
  },
};

export type IntegrationsReceiverConfig = ConfigOf<typeof integrationsReceiverConfigSchema>;

export const loadIntegrationsReceiverConfig = (env: NodeJS.ProcessEnv = process.env): IntegrationsReceiverConfig =>
  loadConfig(integrationsReceiverConfigSchema, env);

/**
 * The worker process (src/worker.ts): makes the items of received events through the other services' APIs,
 * signing for each call with the gateway's keys; its own port answers only probes and metrics.
 */
export const integrationsWorkerConfigSchema = {
  ...service,
  ...workerPriorityConfigSchema,
  ...secretKey,
  port: { ...service.port, doc: "HTTP port of the worker's health, readiness and metrics", default: 4008 },
  feedbackUrl: url(
    'FEEDBACK_URL',
    'GraphQL URL of the feedback service, which creates the items',
    'http://localhost:4001/graphql',
  ),
  contactsUrl: url(
    'CONTACTS_URL',
    'GraphQL URL of the contacts service (its admin schema is at the same origin)',
    'http://localhost:4002/graphql',
  ),
  accountsUrl: url(
    'ACCOUNTS_URL',
    'GraphQL URL of the accounts service (its admin schema is at the same origin)',
    'http://localhost:4003/graphql',
  ),
  slackApiUrl: url(
    'SLACK_API_URL',
    "base URL of Slack's Web API (users.info, for the authors of messages when a bot token is given)",
    'https://slack.com/api',
  ),
  serviceCallTimeoutMs: {
    env: 'INTEGRATIONS_CALL_TIMEOUT_MS',
    doc: "longest wait for one call to the feedback, contacts or accounts service, or to a platform's API",
    default: 10_000,
    parse: parse.int(100, 120_000),
  },
  inboxPollMs: {
    env: 'INTEGRATIONS_INBOX_POLL_MS',
    doc: 'how often the worker looks for received events to turn into items',
    default: 500,
    parse: parse.int(20, 600_000),
  },
  inboxLeaseMs: {
    env: 'INTEGRATIONS_INBOX_LEASE_MS',
    doc: 'how long a worker holds an event it works on; an event held longer (its worker died) is taken up again',
    default: 60_000,
    parse: parse.int(1_000, 3_600_000),
  },
  inboxConcurrency: {
    env: 'INTEGRATIONS_INBOX_CONCURRENCY',
    doc: 'batches of received events each worker turns into items at once',
    default: 4,
    parse: parse.int(1, 64),
  },
  inboxBatch: {
    env: 'INTEGRATIONS_INBOX_BATCH',
    doc: "received events taken at once; each connection's among them become items in one call to the feedback service",
    default: 50,
    parse: parse.int(1, 100),
  },
  inboxMaxAttempts: {
    env: 'INTEGRATIONS_INBOX_MAX_ATTEMPTS',
    doc: 'attempts at an event whose item a service could not take (unavailable) before it is recorded as failed',
    default: 8,
    parse: parse.int(1, 100),
  },
  pullPollMs: {
    env: 'PULL_POLL_MS',
    doc: 'how often the worker looks for pull connections (Zendesk, HubSpot) due for a sync (0: this worker does not pull)',
    default: 5_000,
    parse: parse.int(0, 600_000),
  },
  pullIntervalMs: {
    env: 'PULL_INTERVAL_MS',
    doc: 'time between two syncs of a pull connection that has caught up',
    default: 300_000,
    parse: parse.int(0, 86_400_000),
  },
  pullLeaseMs: {
    env: 'PULL_LEASE_MS',
    doc: "how long a worker holds a pull connection without renewing (after each page); a killed worker's connections wait this long",
    default: 60_000,
    parse: parse.int(1_000, 3_600_000),
  },
  pullFailureBackoffMs: {
    env: 'PULL_FAILURE_BACKOFF_MS',
    doc: 'wait before syncing a pull connection again after a failed call (a revoked token, the platform down)',
    default: 60_000,
    parse: parse.int(100, 86_400_000),
  },
  pullConcurrency: {
    env: 'PULL_CONCURRENCY',
    doc: 'pull connections each worker syncs at once',
    default: 4,
    parse: parse.int(1, 64),
  },
  zendeskBaseUrl: {
    env: 'ZENDESK_BASE_URL',
    doc: "Zendesk's API origin, {subdomain} standing for a connection's subdomain (a local Zendesk-speaking server in tests)",
    default: 'https://{subdomain}.zendesk.com',
    parse: (raw: string) => (parse.url('http:', 'https:')(raw.replace('{subdomain}', 'subdomain')), raw),
  },
  zendeskPageSize: {
    env: 'ZENDESK_PAGE_SIZE',
    doc: "tickets per page of Zendesk's export (its maximum, 1000, by default); the cursor is saved after each page",
    default: 1_000,
    parse: parse.int(1, 1_000),
  },
  hubspotBaseUrl: url(
    'HUBSPOT_BASE_URL',
    "HubSpot's API origin (a local HubSpot-speaking server in tests)",
    'https://api.hubapi.com',
  ),
};

export type IntegrationsWorkerConfig = ConfigOf<typeof integrationsWorkerConfigSchema>;

export const loadIntegrationsWorkerConfig = (env: NodeJS.ProcessEnv = process.env): IntegrationsWorkerConfig =>
  loadConfig(integrationsWorkerConfigSchema, env);
