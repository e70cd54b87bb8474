import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureFerretDb, startFerretDb } from '../../cli/src/embedded/ferretdb';
import { freePort } from '../../cli/src/embedded/freePort';

/**
 * One private MongoDB-compatible server for the whole run: FerretDB on SQLite in a temp folder on a free
 * loopback port, unless MONGODB_URI points at a server already (e.g. a real MongoDB 7).
 * Tests isolate themselves by organization, so they can share it.
 */
export default async function globalSetup(): Promise<void> {
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  if (process.env.MONGODB_URI) return;
  const binary = await ensureFerretDb((message) => console.log(message));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fi-test-db-'));
  const server = await startFerretDb(binary, dataDir, await freePort());
  process.env.MONGODB_URI = server.uri;
  process.env.FERRETDB_BIN = binary;
  (globalThis as { __testDatabase?: unknown }).__testDatabase = { server, dataDir };
}
