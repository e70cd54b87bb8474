import path from 'node:path';
import {
  commonConfigSchema,
  ConfigError,
  identitySigningConfigSchema,
  loadConfig,
  mongoClientConfigSchema,
  parse,
} from '@fi/shared';

const optionalUrl = (env: string, doc: string) => ({ env, doc, default: '', parse: parse.url('http:', 'https:') });

/** A requests-per-window figure, or `unlimited` (null). */
const limitOrUnlimited = (raw: string): number | null =>
  raw.trim().toLowerCase() === 'unlimited' ? null : parse.int(1, 1_000_000_000)(raw);

export const rateLimitConfigSchema = {
  redisUrl: {
    env: 'REDIS_URL',
    doc: 'Redis shared by every gateway instance for rate limits (unset: counted in this process only)',
    default: '',
    parse: parse.url('redis:', 'rediss:'),
  },
  redisTimeoutMs: {
    env: 'REDIS_TIMEOUT_MS',
    doc: 'longest wait for Redis before a request is counted by the in-process insurance limiter instead',
    default: 250,
    parse: parse.int(10, 10_000),
  },
  redisKeyPrefix: {
    env: 'RATE_LIMIT_REDIS_PREFIX',
    doc: 'prefix of the rate-limit keys in Redis',
    default: 'fi:rl',
    parse: parse.string,
  },
  rateLimitWindowSeconds: {
    env: 'RATE_LIMIT_WINDOW_SECONDS',
    doc: 'length of one rate-limit window; the tier limits count requests per window',
    default: 60,
    parse: parse.int(1, 86_400),
  },
  rateLimitFree: {
    env: 'RATE_LIMIT_FREE',
    doc: 'requests per window of a free key',
    default: 60 as number | null,
    parse: limitOrUnlimited,
  },
  rateLimitPro: {
    env: 'RATE_LIMIT_PRO',
    doc: 'requests per window of a pro key',
    default: 300 as number | null,
    parse: limitOrUnlimited,
  },
  rateLimitEnterprise: {
    env: 'RATE_LIMIT_ENTERPRISE',
    doc: 'requests per window of an enterprise key, or unlimited',
    default: null as number | null,
    parse: limitOrUnlimited,
  },
  costPointsPerRequest: {
    env: 'COST_POINTS_PER_REQUEST',
    doc: "points of a key's cost budget per request of its rate limit (a free key: 60 x 10 = 600 points per window); see docs/limits.md",
    default: 10,
    parse: parse.int(1, 1_000_000),
  },
  keyConcurrency: {
    env: 'KEY_CONCURRENCY',
    doc: 'requests of one API key in flight at once in this gateway instance; more wait (KEY_QUEUE, KEY_QUEUE_WAIT_MS), then get 429',
    default: 20,
    parse: parse.int(1, 100_000),
  },
  // Generous: the wait bounds how long a request is held (one that would wait longer at the key's recent
  // pace is refused at once), the queue only the memory of a burst (an importer sending 200 at once is
  // served in turn, not refused).
  keyQueue: {
    env: 'KEY_QUEUE',
    doc: "most requests of one key that may wait for a place (a memory cap); beyond them, or when one would wait longer than KEY_QUEUE_WAIT_MS at the key's recent pace, 429 at once",
    default: 1_000,
    parse: parse.int(0, 1_000_000),
  },
  keyQueueWaitMs: {
    env: 'KEY_QUEUE_WAIT_MS',
    doc: 'longest wait of a request for a place of its key before 429',
    default: 5_000,
    parse: parse.int(1, 600_000),
  },
  gatewayInstances: {
    env: 'GATEWAY_INSTANCES',
    doc: 'gateway instances assumed sharing the Redis limits until the instances have counted themselves in Redis; while Redis is down each allows its share of every limit',
    default: 1,
    parse: parse.int(1, 1_000),
  },
  invalidKeyLimit: {
    env: 'INVALID_KEY_LIMIT',
    doc: 'requests with a missing or invalid key one client address may send per window before it is refused',
    default: 100,
    parse: parse.int(1, 1_000_000),
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    doc: 'take the client address from X-Forwarded-For (only behind a proxy that sets it)',
    default: false,
    parse: parse.bool,
  },
};

export const queryLimitsConfigSchema = {
  maxDepth: {
    env: 'MAX_QUERY_DEPTH',
    doc: 'deepest selection a document may have',
    default: 8,
    parse: parse.int(1, 100),
  },
  maxAliases: {
    env: 'MAX_QUERY_ALIASES',
    doc: 'most aliases in one document',
    default: 15,
    parse: parse.int(0, 1_000),
  },
  maxDirectives: {
    env: 'MAX_QUERY_DIRECTIVES',
    doc: 'most directives in one document',
    default: 20,
    parse: parse.int(0, 1_000),
  },
  maxTokens: {
    env: 'MAX_QUERY_TOKENS',
    doc: 'most lexical tokens in one document',
    default: 2_000,
    parse: parse.int(50, 100_000),
  },
  maxCost: {
    env: 'MAX_QUERY_COST',
    doc: 'highest estimated cost of one document (objects 2, scalars 1, x1.5 per level; an ordinary request costs under 200)',
    default: 1_000,
    parse: parse.int(10, 10_000_000),
  },
  fieldSuggestions: {
    env: 'FIELD_SUGGESTIONS',
    doc: 'show "Did you mean ...?" hints in validation errors (development only: they map the schema)',
    default: false,
    parse: parse.bool,
  },
};

/** How the gateway verifies callers: the identity service, a short cache, and the identity it signs for subgraphs. */
export const identityClientConfigSchema = {
  identityUrl: {
    env: 'IDENTITY_URL',
    doc: 'base URL of the identity service, which verifies API keys and serves the admin API (/admin/graphql)',
    default: 'http://127.0.0.1:4004',
    parse: parse.url('http:', 'https:'),
  },
  identityTimeoutMs: {
    env: 'IDENTITY_TIMEOUT_MS',
    doc: 'longest wait for the identity service before a request is answered SERVICE_UNAVAILABLE',
    default: 3_000,
    parse: parse.int(100, 60_000),
  },
  authCacheTtlMs: {
    env: 'AUTH_CACHE_TTL_MS',
    doc: 'how long a verified key is cached in-process; also the longest delay before a revoked key stops working',
    default: 10_000,
    parse: parse.int(0, 3_600_000),
  },
  identityTokenTtlMs: {
    env: 'IDENTITY_TOKEN_TTL_MS',
    doc: 'lifetime of the signed identity sent with each subgraph call',
    default: 30_000,
    parse: parse.int(1_000, 600_000),
  },
};

export const gatewayConfigSchema = {
  port: { env: 'PORT', doc: 'HTTP port of the gateway', default: 4000, parse: parse.port },
  host: { env: 'HOST', doc: 'interface to listen on', default: '127.0.0.1', parse: parse.string },
  supergraphPath: {
    env: 'SUPERGRAPH_PATH',
    doc: 'supergraph SDL composed ahead of time (npm run compose)',
    default: path.resolve(__dirname, '../../supergraph.graphql'),
    parse: parse.string,
  },
  supergraphUrl: optionalUrl(
    'SUPERGRAPH_URL',
    'URL the supergraph SDL is fetched from (GET), at start and every SUPERGRAPH_POLL_MS; unset: SUPERGRAPH_PATH',
  ),
  supergraphPollMs: {
    env: 'SUPERGRAPH_POLL_MS',
    doc: 'how often the gateway looks for a new supergraph (SUPERGRAPH_URL, or SUPERGRAPH_PATH where file events are missed)',
    default: 5_000,
    parse: parse.int(100, 86_400_000),
  },
  supergraphFetchTimeoutMs: {
    env: 'SUPERGRAPH_FETCH_TIMEOUT_MS',
    doc: 'longest wait for one GET of SUPERGRAPH_URL',
    default: 5_000,
    parse: parse.int(100, 300_000),
  },
  feedbackUrl: optionalUrl('FEEDBACK_URL', 'GraphQL URL of the feedback subgraph (default: the one in the supergraph)'),
  contactsUrl: optionalUrl('CONTACTS_URL', 'GraphQL URL of the contacts subgraph (default: the one in the supergraph)'),
  accountsUrl: optionalUrl('ACCOUNTS_URL', 'GraphQL URL of the accounts subgraph (default: the one in the supergraph)'),
  integrationsUrl: optionalUrl(
    'INTEGRATIONS_URL',
    'GraphQL URL of the integrations subgraph (default: the one in the supergraph)',
  ),
  subgraphTimeoutMs: {
    env: 'SUBGRAPH_TIMEOUT_MS',
    doc: 'longest wait for one subgraph call: for its answer to start, then for each further part of it',
    default: 10_000,
    parse: parse.int(100, 300_000),
  },
  dashboardDir: {
    env: 'DASHBOARD_DIR',
    doc: 'folder of the built web application (dashboard/dist) served on every GET path the API does not use; unset: no web application',
    default: '',
    parse: parse.string,
  },
  introspection: { env: 'INTROSPECTION', doc: 'allow schema introspection', default: true, parse: parse.bool },
  dedupeQueries: {
    env: 'DEDUPE_QUERIES',
    doc: 'let concurrent identical queries (same document, variables and keys) share one execution',
    default: true,
    parse: parse.bool,
  },
  ...mongoClientConfigSchema,
  ...rateLimitConfigSchema,
  ...queryLimitsConfigSchema,
  ...identityClientConfigSchema,
  ...identitySigningConfigSchema,
  ...commonConfigSchema,
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

/**
 * The database's time limit must end a subgraph's work before the gateway stops waiting for its answer,
 * or the client gets "did not answer in time" for work that runs on after it was given up.
 */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(gatewayConfigSchema, env);
  if (config.mongodbMaxTimeMs >= config.subgraphTimeoutMs) {
    throw new ConfigError([
      `MONGODB_MAX_TIME_MS=${config.mongodbMaxTimeMs} must be below SUBGRAPH_TIMEOUT_MS=${config.subgraphTimeoutMs}, so the database stops a query before the gateway gives up on it`,
    ]);
  }
  return config;
}
