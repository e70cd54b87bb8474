import { loadConfig, parse, parseSigningKeys } from '@fi/shared';
import { DEFAULT_RESTART_POLICY } from './supervisor';

const port = (env: string, fallback: number, what: string) => ({
  env,
  doc: `port of ${what}`,
  default: fallback,
  parse: parse.port,
});
const mongoUrl = { parse: parse.mongoUri, default: '' };

/** Settings of `npm start`; everything else passes through to the services' own config. */
export const stackConfigSchema = {
  gatewayPort: port('GATEWAY_PORT', 4000, 'the gateway'),
  feedbackPort: port('FEEDBACK_PORT', 4001, 'the feedback subgraph'),
  contactsPort: port('CONTACTS_PORT', 4002, 'the contacts subgraph'),
  accountsPort: port('ACCOUNTS_PORT', 4003, 'the accounts subgraph'),
  identityPort: port('IDENTITY_PORT', 4004, 'the identity service'),
  feedbackWorkerPort: port('FEEDBACK_WORKER_PORT', 4005, "the feedback worker's health, readiness and metrics"),
  integrationsPort: port('INTEGRATIONS_PORT', 4006, 'the integrations subgraph'),
  integrationsReceiverPort: port(
    'INTEGRATIONS_RECEIVER_PORT',
    4007,
    "the integrations receiver (platforms' events: POST /hooks/<token>)",
  ),
  integrationsWorkerPort: port(
    'INTEGRATIONS_WORKER_PORT',
    4008,
    "the integrations worker's health, readiness and metrics",
  ),
  embeddedDbPort: port('EMBEDDED_DB_PORT', 27117, 'the embedded database (when MONGODB_URI is unset)'),
  mongodbUri: {
    env: 'MONGODB_URI',
    doc: 'MongoDB for every service; unset: the embedded database, seeded with a demo',
    ...mongoUrl,
  },
  feedbackMongodbUri: { env: 'FEEDBACK_MONGODB_URI', doc: 'MongoDB of the feedback service only', ...mongoUrl },
  contactsMongodbUri: { env: 'CONTACTS_MONGODB_URI', doc: 'MongoDB of the contacts service only', ...mongoUrl },
  accountsMongodbUri: { env: 'ACCOUNTS_MONGODB_URI', doc: 'MongoDB of the accounts service only', ...mongoUrl },
  identityMongodbUri: { env: 'IDENTITY_MONGODB_URI', doc: 'MongoDB of the identity service only', ...mongoUrl },
  integrationsMongodbUri: {
    env: 'INTEGRATIONS_MONGODB_URI',
    doc: 'MongoDB of the integrations service only',
    ...mongoUrl,
  },
  identitySigningKeys: {
    env: 'IDENTITY_SIGNING_KEYS',
    doc: 'keys the gateway signs identities for the subgraphs with (KEY_ID:SECRET,...); unset: a fresh key for this run',
    default: '',
    parse: (raw: string) => (parseSigningKeys(raw), raw),
  },
  restartLimit: {
    env: 'STACK_RESTART_LIMIT',
    doc: 'crashes of one service within STACK_RESTART_WINDOW_SECONDS that npm start restarts it after; one more stops the stack',
    default: 5,
    parse: parse.int(0, 1_000),
  },
  restartWindowSeconds: {
    env: 'STACK_RESTART_WINDOW_SECONDS',
    doc: 'window in which crashes of one service are counted',
    default: 60,
    parse: parse.int(1, 86_400),
  },
  redisUrl: {
    env: 'REDIS_URL',
    doc: 'Redis for rate limits shared by gateway instances (unset: in-process)',
    default: '',
    parse: parse.url('redis:', 'rediss:'),
  },
};

export type StackConfig = ReturnType<typeof loadStackConfig>;

export function loadStackConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(stackConfigSchema, env);
  return {
    ...config,
    restartPolicy: {
      ...DEFAULT_RESTART_POLICY,
      maxCrashes: config.restartLimit,
      windowMs: config.restartWindowSeconds * 1000,
    },
  };
}
