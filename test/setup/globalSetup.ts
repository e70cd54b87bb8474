import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureFerretDb, freePort, startFerretDb } from '@fi/cli/embedded';
import { PrivateRedis, redisAnswers } from '../helpers/privateRedis';

const MACHINE_REDIS = { host: '127.0.0.1', port: 6379 };

/**
 * One private MongoDB-compatible server for the whole run: FerretDB on SQLite in a temp folder on a free
 * loopback port, unless MONGODB_URI points at a server already (e.g. a real MongoDB 7). Redis: REDIS_URL,
 * else the machine's own on 127.0.0.1:6379, else a private redis-server. Tests isolate themselves by
 * organization and Redis key prefix, so they can share both.
 */
export default async function globalSetup(): Promise<void> {
  // The feedback service requires a key for webhook secrets; every service a test starts inherits it.
  process.env.WEBHOOK_SECRET_KEY ??= randomBytes(32).toString('hex');
  process.env.INTEGRATIONS_SECRET_KEY ??= randomBytes(32).toString('hex');
  // The gateway signs the identity subgraphs trust with it; every service a test starts inherits it.
  process.env.IDENTITY_SIGNING_KEYS ??= `test:${randomBytes(32).toString('base64url')}`;
  if (!process.env.REDIS_URL) {
    if (await redisAnswers(MACHINE_REDIS.port)) {
      process.env.REDIS_URL = `redis://${MACHINE_REDIS.host}:${MACHINE_REDIS.port}`;
    } else {
      const redis = await PrivateRedis.start();
      process.env.REDIS_URL = redis.url;
      (globalThis as { __testRedis?: PrivateRedis }).__testRedis = redis;
    }
  }
  if (process.env.MONGODB_URI) return;
  const binary = await ensureFerretDb((message) => console.log(message));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fi-test-db-'));
  const server = await startFerretDb(binary, dataDir, await freePort());
  process.env.MONGODB_URI = server.uri;
  process.env.FERRETDB_BIN = binary;
  (globalThis as { __testDatabase?: unknown }).__testDatabase = { server, dataDir };
}
