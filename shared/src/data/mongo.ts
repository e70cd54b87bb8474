import mongoose, { type Connection } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '../config';

export type { Connection };

// Mongoose records a stack trace at every query (for its "query was already executed" error); with
// source maps on (tsx) each one costs a source-mapped stack walk, a few percent of a service's CPU.
mongoose.set('skipOriginalStackTraces', true);

/** How often the driver checks each server (its minimum is 500 ms). */
const HEARTBEAT_MS = 500;

export interface MongoClientOptions {
  /** How long an operation waits for an unreachable database before it fails with SERVICE_UNAVAILABLE. */
  serverSelectionTimeoutMs?: number;
  /** `majority`, or how many members must acknowledge a write. */
  writeConcern?: 'majority' | number;
  /** Time limit of every operation on this connection (see `connectMongo`). */
  maxTimeMs?: number;
}

/**
 * Index builds run at start or by the CLI, never for a request, and may scan a large collection: they
 * get minutes instead of the request limit (pass as `{ timeoutMS: INDEX_BUILD_TIME_LIMIT }`).
 */
export const INDEX_BUILD_TIME_LIMIT = { timeoutMS: 600_000 };

/**
 * Opens one connection pool per server. Mongoose buffers nothing (`bufferCommands: false`), so a
 * database outage fails a request fast instead of queueing it until a timeout. Writes are
 * acknowledged only once journaled (and, by default, by a majority of a replica set), so an
 * acknowledged item survives a crash.
 *
 * Every operation on the connection, mongoose query or raw driver call alike, has a time limit: the
 * driver's client-side operation timeout (`timeoutMS`) sends each command with `maxTimeMS` set to the
 * time left, so the server stops work the client has given up on, and gives up itself at the same
 * moment should a server not stop in time. New code gets the limit without doing anything; the rare
 * operation that needs longer (an index build at start) passes its own `timeoutMS`.
 */
export async function connectMongo(uri: string, dbName: string, options: MongoClientOptions = {}): Promise<Connection> {
  const unreachableAfterMs = options.serverSelectionTimeoutMs ?? 3_000;
  const connection = mongoose.createConnection(uri, {
    dbName,
    bufferCommands: false,
    autoIndex: false,
    serverSelectionTimeoutMS: unreachableAfterMs,
    // A database that stops answering (frozen, cut off) is noticed by the driver's monitor within
    // MONGODB_TIMEOUT_MS: it checks every half second, and a check unanswered for the rest of that time
    // marks the server unknown and interrupts the operations waiting on it, which then answer
    // SERVICE_UNAVAILABLE instead of running into MONGODB_MAX_TIME_MS as if they had asked for too much.
    heartbeatFrequencyMS: HEARTBEAT_MS,
    connectTimeoutMS: Math.max(1_000, unreachableAfterMs - HEARTBEAT_MS),
    writeConcern: { w: options.writeConcern ?? 'majority', journal: true },
    maxPoolSize: 20,
    timeoutMS: options.maxTimeMs ?? DEFAULT_MAX_TIME_MS,
  });
  countPoolConnections(connection);
  await connection.asPromise();
  return connection;
}

export interface PoolStats {
  open: number;
  inUse: number;
}

const poolStats = new WeakMap<object, PoolStats>();

/** Listens before the first connection opens, so the figures are exact from the start. */
function countPoolConnections(connection: Connection): void {
  const stats: PoolStats = { open: 0, inUse: 0 };
  const client = connection.getClient();
  poolStats.set(client, stats);
  client.on('connectionCreated', () => (stats.open += 1));
  client.on('connectionClosed', () => (stats.open -= 1));
  client.on('connectionCheckedOut', () => (stats.inUse += 1));
  client.on('connectionCheckedIn', () => (stats.inUse -= 1));
}

/** Connections of the pool behind `connection` (shared by its `useDb` siblings). */
export function mongoPoolStats(connection: Connection): PoolStats {
  return poolStats.get(connection.getClient()) ?? { open: 0, inUse: 0 };
}

/** Another database on the same server reuses the pool; a different server gets its own. */
export async function connectSibling(
  base: Connection,
  baseUri: string,
  uri: string,
  dbName: string,
  options?: MongoClientOptions,
): Promise<Connection> {
  if (uri === '' || uri === baseUri) return base.useDb(dbName, { useCache: true });
  return connectMongo(uri, dbName, options);
}

export async function pingMongo(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error('not connected');
  await db.command({ ping: 1 });
}
