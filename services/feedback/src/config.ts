import {
  ConfigError,
  loadConfig,
  parse,
  serviceConfigSchema,
  workerPriorityConfigSchema,
  type ConfigOf,
} from '@fi/shared';
import { aiConfigProblems, aiConfigSchema } from './ai';
import { webhookConfigSchema } from './webhooks';

export const feedbackConfigSchema = {
  ...serviceConfigSchema({ port: 4001, database: 'feedback' }),
  ...webhookConfigSchema,
  ...aiConfigSchema,
  themesIntervalMs: {
    env: 'THEMES_INTERVAL_MS',
    doc: 'how often each worker looks for organizations whose feedback changed and recomputes their themes (0: never)',
    default: 20_000,
    parse: parse.int(0, 3_600_000),
  },
  alertsIntervalMs: {
    env: 'ALERTS_INTERVAL_MS',
    doc: "how often each worker compares every organization's day with its 28-day baseline and opens, grows and closes alerts (0: never)",
    default: 60_000,
    parse: parse.int(0, 3_600_000),
  },
  searchIndexIntervalMs: {
    env: 'SEARCH_INDEX_INTERVAL_MS',
    doc: 'how often each worker adds new feedback to the search index (0: never; searches then match the unindexed items by regex)',
    default: 5_000,
    parse: parse.int(0, 3_600_000),
  },
  searchIndexGraceMs: {
    env: 'SEARCH_INDEX_GRACE_MS',
    doc: 'age of the newest items the search indexer takes: longer than any write of an item takes, so none commits behind it (younger items are matched by regex)',
    default: 60_000,
    parse: parse.int(0, 3_600_000),
  },
};

export type FeedbackConfig = ConfigOf<typeof feedbackConfigSchema>;

/** Where the worker sends alerts and digests by email, and what their links point at (docs/alerts.md). */
export const alertDeliveryConfigSchema = {
  identityUrl: {
    env: 'IDENTITY_URL',
    doc: 'base URL of the identity service, which the worker asks who opted in to alert and digest emails (unset: no emails)',
    default: '',
    parse: parse.url('http:', 'https:'),
  },
  integrationsUrl: {
    env: 'INTEGRATIONS_URL',
    doc: 'base URL of the integrations service, which the worker asks how connected platforms send (a platform silent for 24 hours alerts; unset: not checked)',
    default: '',
    parse: parse.url('http:', 'https:'),
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    doc: 'address of the web application, where the links of alerts (Slack, email) point',
    default: 'http://localhost:4000',
    parse: parse.url('http:', 'https:'),
  },
  smtpUrl: {
    env: 'SMTP_URL',
    doc: 'SMTP server that mails alerts and digests, e.g. smtps://user:password@smtp.example.com:465 (unset: written to MAIL_DIR, or not sent)',
    default: '',
    parse: parse.url('smtp:', 'smtps:'),
  },
  mailFrom: {
    env: 'MAIL_FROM',
    doc: 'sender of alert and digest mails',
    default: 'Feedback Intelligence <no-reply@localhost>',
    parse: parse.string,
  },
  mailDir: {
    env: 'MAIL_DIR',
    doc: 'without SMTP_URL, where alert and digest mails are written as .eml files (development; `npm start` sets .data/mail)',
    default: '',
    parse: parse.string,
  },
  digestIntervalMs: {
    env: 'DIGEST_INTERVAL_MS',
    doc: 'how often each worker looks for organizations whose weekly digest is due (0: never)',
    default: 600_000,
    parse: parse.int(0, 86_400_000),
  },
};

// What only serving requests needs: the identities the gateway signs and the per-organization bulkheads.
const {
  identitySigningKeys: _identitySigningKeys,
  orgConcurrency: _orgConcurrency,
  dbConcurrency: _dbConcurrency,
  orgQueue: _orgQueue,
  orgQueueWaitMs: _orgQueueWaitMs,
  ...workerSettings
} = feedbackConfigSchema;

/**
 * The worker process's settings (src/worker.ts): the service's, less what only serving needs, and its own
 * port, on which it answers only /health, /ready and /metrics.
 */
export const feedbackWorkerConfigSchema = {
  ...workerSettings,
  ...workerPriorityConfigSchema,
  ...alertDeliveryConfigSchema,
  port: {
    ...feedbackConfigSchema.port,
    doc: "HTTP port of the worker's health, readiness and metrics (it serves no API)",
    default: 4005,
  },
};

export type FeedbackWorkerConfig = ConfigOf<typeof feedbackWorkerConfigSchema>;

/** The validated configuration; half a model configuration (see ai/aiSettings.ts) stops the start like a bad variable. */
export function loadFeedbackConfig(env: NodeJS.ProcessEnv = process.env): FeedbackConfig {
  return withAiChecked(loadConfig(feedbackConfigSchema, env));
}

/** The worker process's validated configuration, checked as the API's is. */
export function loadFeedbackWorkerConfig(env: NodeJS.ProcessEnv = process.env): FeedbackWorkerConfig {
  return withAiChecked(loadConfig(feedbackWorkerConfigSchema, env));
}

function withAiChecked<C extends Parameters<typeof aiConfigProblems>[0]>(config: C): C {
  const problems = aiConfigProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
