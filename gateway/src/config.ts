import path from 'node:path';
import { authConfigSchema, commonConfigSchema, loadConfig, parse } from '@fi/shared';

const optionalUrl = (env: string, doc: string) => ({ env, doc, default: '', parse: parse.url('http:', 'https:') });

export const gatewayConfigSchema = {
  port: { env: 'PORT', doc: 'HTTP port of the gateway', default: 4000, parse: parse.port },
  host: { env: 'HOST', doc: 'interface to listen on', default: '127.0.0.1', parse: parse.string },
  supergraphPath: {
    env: 'SUPERGRAPH_PATH',
    doc: 'supergraph SDL composed ahead of time (npm run compose)',
    default: path.resolve(__dirname, '../../supergraph.graphql'),
    parse: parse.string,
  },
  feedbackUrl: optionalUrl('FEEDBACK_URL', 'GraphQL URL of the feedback subgraph (default: the one in the supergraph)'),
  contactsUrl: optionalUrl('CONTACTS_URL', 'GraphQL URL of the contacts subgraph (default: the one in the supergraph)'),
  accountsUrl: optionalUrl('ACCOUNTS_URL', 'GraphQL URL of the accounts subgraph (default: the one in the supergraph)'),
  subgraphTimeoutMs: {
    env: 'SUBGRAPH_TIMEOUT_MS',
    doc: 'longest wait for one subgraph call',
    default: 10_000,
    parse: parse.int(100, 300_000),
  },
  mongodbUri: {
    env: 'MONGODB_URI',
    doc: 'MongoDB connection string; the gateway reads the API-key store there (see AUTH_MONGODB_URI)',
    parse: parse.url('mongodb:', 'mongodb+srv:'),
  },
  introspection: { env: 'INTROSPECTION', doc: 'allow schema introspection', default: true, parse: parse.bool },
  ...authConfigSchema,
  ...commonConfigSchema,
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(gatewayConfigSchema, env);
