import { ConnectionString } from 'mongodb-connection-string-url';
import { parseSigningKeys, type SigningKeyring } from './auth/signedIdentity';

/**
 * The default time limit of one database operation: a little below the gateway's 10 s subgraph timeout.
 * Here, not in mongo.ts: the telemetry bootstrap reads this config before the tracing hooks are in place,
 * so nothing this module imports may load mongoose or the mongodb driver (they would go untraced).
 */
export const DEFAULT_MAX_TIME_MS = 8_000;

/**
 * One validated configuration per service: each key names its environment variable, says what it is
 * for and has a default (or is required). All problems are reported at once, so an operator fixes a
 * bad deployment in one go.
 */
export interface ConfigField<T> {
  env: string;
  doc: string;
  /** Omitted: the variable is required. */
  default?: T;
  parse: (raw: string) => T;
}

export type Schema = Record<string, ConfigField<unknown>>;
export type ConfigOf<S extends Schema> = { [K in keyof S]: S[K] extends ConfigField<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig<S extends Schema>(schema: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema)) {
    const raw = env[field.env];
    if (raw === undefined || raw === '') {
      if (field.default === undefined) problems.push(`${field.env} is required: ${field.doc}`);
      else result[key] = field.default;
      continue;
    }
    try {
      result[key] = field.parse(raw);
    } catch (error) {
      problems.push(`${field.env}=${JSON.stringify(raw)} is invalid: ${(error as Error).message} (${field.doc})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return result as ConfigOf<S>;
}

export const parse = {
  string: (raw: string): string => raw,
  int:
    (min: number, max: number) =>
    (raw: string): number => {
      if (!/^-?\d+$/.test(raw.trim())) throw new Error('expected a whole number');
      const value = Number(raw);
      if (value < min || value > max) throw new Error(`expected a number from ${min} to ${max}`);
      return value;
    },
  port: (raw: string): number => parse.int(0, 65535)(raw),
  bool: (raw: string): boolean => {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new Error('expected true or false');
  },
  url:
    (...protocols: string[]) =>
    (raw: string): string => {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new Error('expected a URL');
      }
      if (!protocols.includes(url.protocol)) throw new Error(`expected a ${protocols.join(' or ')} URL`);
      return raw;
    },
  /**
   * A MongoDB connection string, read by the driver's own parser: a replica set's seed list
   * (`mongodb://h1:27017,h2:27017/?replicaSet=rs0`) is not a WHATWG URL, so `url` would refuse it.
   */
  mongoUri: (raw: string): string => {
    try {
      new ConnectionString(raw);
    } catch (error) {
      throw new Error(`expected a mongodb:// or mongodb+srv:// connection string (${(error as Error).message})`, {
        cause: error,
      });
    }
    return raw;
  },
  oneOf:
    <T extends string>(...values: T[]) =>
    (raw: string): T => {
      if (!(values as string[]).includes(raw)) throw new Error(`expected one of ${values.join(', ')}`);
      return raw as T;
    },
};

/** Settings every subgraph shares: where it listens, its database, the identity signing keys, logging. */
export function serviceConfigSchema(defaults: { port: number; database: string }) {
  return {
    port: { env: 'PORT', doc: 'HTTP port of this service', default: defaults.port, parse: parse.port },
    host: { env: 'HOST', doc: 'interface to listen on', default: '127.0.0.1', parse: parse.string },
    mongodbUri: {
      env: 'MONGODB_URI',
      doc: 'MongoDB connection string of this service',
      parse: parse.mongoUri,
    },
    mongodbDb: {
      env: 'MONGODB_DB',
      doc: 'database name of this service',
      default: defaults.database,
      parse: parse.string,
    },
    ...organizationBulkheadConfigSchema,
    ...mongoClientConfigSchema,
    ...identitySigningConfigSchema,
    ...exportConfigSchema,
    ...changesConfigSchema,
    ...commonConfigSchema,
  } satisfies Schema;
}

/** The changes feeds (see docs/export.md, Syncing your data). */
export const changesConfigSchema = {
  changesClockMarginMs: {
    env: 'CHANGES_CLOCK_MARGIN_MS',
    doc: "how far apart the clocks of this service's instances may be: a change is listed in the changes feed once MONGODB_MAX_TIME_MS plus this has passed since it was stamped, so a slow write is never passed over",
    default: 2_000,
    parse: parse.int(0, 600_000),
  },
} satisfies Schema;

/** Each organization's share of a service's database work (see docs/limits.md, Bulkheads). */
export const organizationBulkheadConfigSchema = {
  orgConcurrency: {
    env: 'ORG_CONCURRENCY',
    doc: 'root fields (each a page read and count, a write, a batch of entity look-ups) one organization runs at once in this service; a fifth of the database pool by default',
    default: 4,
    parse: parse.int(1, 10_000),
  },
  dbConcurrency: {
    env: 'DB_CONCURRENCY',
    doc: 'root fields of all organizations this service runs at once; a freed place goes to the waiting organization with the fewest running, then the one served longest ago',
    default: 8,
    parse: parse.int(1, 10_000),
  },
  // A memory cap, not the shedding rule: a burst is shed by the time its operations would wait (ORG_QUEUE_WAIT_MS).
  orgQueue: {
    env: 'ORG_QUEUE',
    doc: "most of an organization's operations that may wait for a place (a memory cap); beyond them, or when one would wait longer than ORG_QUEUE_WAIT_MS at the organization's recent pace, it is refused at once (RATE_LIMITED)",
    default: 2_000,
    parse: parse.int(0, 100_000),
  },
  orgQueueWaitMs: {
    env: 'ORG_QUEUE_WAIT_MS',
    doc: "longest wait of an operation for its organization's place: one that would wait longer is refused at once, one that did is refused then (RATE_LIMITED, retry in 1 s)",
    default: 1_000,
    parse: parse.int(1, 600_000),
  },
} satisfies Schema;

/** Bulk exports: every service that owns exportable records runs its own jobs with these settings. */
export const exportConfigSchema = {
  exportPublicUrl: {
    env: 'EXPORT_PUBLIC_URL',
    doc: 'public origin of the gateway, where export files are downloaded (GET /exports/<resource>?token=...); use https in production',
    default: 'http://localhost:4000',
    parse: parse.url('http:', 'https:'),
  },
  exportRetentionHours: {
    env: 'EXPORT_RETENTION_HOURS',
    doc: 'how long a finished export file can be downloaded before it is deleted',
    default: 168,
    parse: parse.int(1, 24 * 90),
  },
  exportConcurrency: {
    env: 'EXPORT_CONCURRENCY',
    doc: 'exports this service instance runs at once (always at most one per organization)',
    default: 2,
    parse: parse.int(1, 64),
  },
  exportMaxPending: {
    env: 'EXPORT_MAX_PENDING',
    doc: 'queued and running exports one organization may have per resource; more are refused with RATE_LIMITED',
    default: 5,
    parse: parse.int(1, 1_000),
  },
  exportPageSize: {
    env: 'EXPORT_PAGE_SIZE',
    doc: 'records read, written and compressed at a time: the memory an export holds is about one page',
    default: 1_000,
    parse: parse.int(10, 10_000),
  },
  exportLeaseMs: {
    env: 'EXPORT_LEASE_MS',
    doc: 'an instance renews its claim on a running export at a third of this; a claim not renewed for this long (the instance died) is taken over and the export resumes',
    default: 30_000,
    parse: parse.int(1_000, 3_600_000),
  },
  exportPollMs: {
    env: 'EXPORT_POLL_MS',
    doc: 'how often an instance looks for queued or orphaned exports (a new export on this instance starts at once)',
    default: 2_000,
    parse: parse.int(50, 600_000),
  },
} satisfies Schema;

export const mongoClientConfigSchema = {
  mongodbTimeoutMs: {
    env: 'MONGODB_TIMEOUT_MS',
    doc: 'how long an operation waits for an unreachable database before failing with SERVICE_UNAVAILABLE',
    default: 3_000,
    parse: parse.int(100, 120_000),
  },
  mongodbWriteConcern: {
    env: 'MONGODB_WRITE_CONCERN',
    doc: 'acknowledgement a write waits for: majority, or a number of replica-set members (always journaled)',
    default: 'majority' as 'majority' | number,
    // At least one: an unacknowledged write (w: 0) could be lost after the API said it was stored.
    parse: (raw: string): 'majority' | number => (raw === 'majority' ? raw : parse.int(1, 50)(raw)),
  },
  mongodbMaxTimeMs: {
    env: 'MONGODB_MAX_TIME_MS',
    doc: "time limit of every database operation, enforced by the server (maxTimeMS) and the driver; keep it below the gateway's SUBGRAPH_TIMEOUT_MS",
    default: DEFAULT_MAX_TIME_MS,
    parse: parse.int(100, 300_000),
  },
} satisfies Schema;

/** The client options of a service's MongoDB connections, from its validated config. */
export function mongoClientOptions(config: ConfigOf<typeof mongoClientConfigSchema>) {
  return {
    serverSelectionTimeoutMs: config.mongodbTimeoutMs,
    writeConcern: config.mongodbWriteConcern,
    maxTimeMs: config.mongodbMaxTimeMs,
  };
}

/**
 * The keys that sign the identity the gateway sends subgraphs (the gateway signs with the first, every
 * service accepts any listed one): rotate by listing a new key second everywhere, then first, then
 * dropping the old one.
 */
export const identitySigningConfigSchema = {
  identitySigningKeys: {
    env: 'IDENTITY_SIGNING_KEYS',
    doc: "KEY_ID:SECRET[,KEY_ID:SECRET...] (secrets of 32+ characters); the first signs the gateway's identity header, all verify it",
    parse: parseSigningKeys,
  } as ConfigField<SigningKeyring>,
} satisfies Schema;

/** Where traces go; read by the tracing bootstrap before anything else loads, and validated with the rest. */
export const telemetryConfigSchema = {
  otlpEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    doc: 'OTLP/HTTP collector that receives traces, e.g. http://collector:4318 (unset: no tracing at all)',
    default: '',
    parse: parse.url('http:', 'https:'),
  },
} satisfies Schema;

export const commonConfigSchema = {
  ...telemetryConfigSchema,
  logLevel: {
    env: 'LOG_LEVEL',
    doc: 'pino log level',
    default: 'info',
    parse: parse.oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
  },
  debugErrors: {
    env: 'DEBUG_ERRORS',
    doc: 'include stack traces and internal messages in error responses (never in production)',
    default: false,
    parse: parse.bool,
  },
  shutdownTimeoutMs: {
    env: 'SHUTDOWN_TIMEOUT_MS',
    doc: 'how long in-flight requests may run after SIGTERM before the process exits',
    default: 10_000,
    parse: parse.int(0, 600_000),
  },
} satisfies Schema;
