import { loadConfig, parse } from '@fi/shared';

const port = (env: string, fallback: number, what: string) => ({ env, doc: `port of ${what}`, default: fallback, parse: parse.port });
const mongoUrl = { parse: parse.mongoUri, default: '' };

/** Settings of `npm start`; everything else passes through to the services' own config. */
export const stackConfigSchema = {
  gatewayPort: port('GATEWAY_PORT', 4000, 'the gateway'),
  feedbackPort: port('FEEDBACK_PORT', 4001, 'the feedback subgraph'),
  contactsPort: port('CONTACTS_PORT', 4002, 'the contacts subgraph'),
  accountsPort: port('ACCOUNTS_PORT', 4003, 'the accounts subgraph'),
  embeddedDbPort: port('EMBEDDED_DB_PORT', 27117, 'the embedded database (when MONGODB_URI is unset)'),
  mongodbUri: { env: 'MONGODB_URI', doc: 'MongoDB for every service; unset: the embedded database, seeded with a demo', ...mongoUrl },
  feedbackMongodbUri: { env: 'FEEDBACK_MONGODB_URI', doc: 'MongoDB of the feedback service only', ...mongoUrl },
  contactsMongodbUri: { env: 'CONTACTS_MONGODB_URI', doc: 'MongoDB of the contacts service only', ...mongoUrl },
  accountsMongodbUri: { env: 'ACCOUNTS_MONGODB_URI', doc: 'MongoDB of the accounts service only', ...mongoUrl },
  redisUrl: { env: 'REDIS_URL', doc: 'Redis for rate limits shared by gateway instances (unset: in-process)', default: '', parse: parse.url('redis:', 'rediss:') },
};

export type StackConfig = ReturnType<typeof loadStackConfig>;

export const loadStackConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(stackConfigSchema, env);
