import { execFile, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureFerretDb, startFerretDb, type EmbeddedMongo, type Say } from './ferretdb';
import { waitForMongo } from './waitForMongo';
import { stopChild } from './stopChild';

async function findMongod(): Promise<string | null> {
  const candidate = process.env.MONGOD_BIN ?? 'mongod';
  try {
    await promisify(execFile)(candidate, ['--version']);
    return candidate;
  } catch {
    return null;
  }
}

async function startMongod(binary: string, dataDir: string, port: number): Promise<EmbeddedMongo> {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(binary, ['--dbpath', dataDir, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet'], {
    stdio: 'ignore',
  });
  const uri = `mongodb://127.0.0.1:${port}/`;
  await waitForMongo(uri, child, 30_000);
  return {
    uri,
    process: child,
    stop: () => stopChild(child),
  };
}

/**
 * A MongoDB-compatible server with no installation: a real `mongod` when one is on the PATH (or
 * MONGOD_BIN), otherwise FerretDB on SQLite, built with Go on first use. Data stays under `dataDir`.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  port: number,
  say: Say,
): Promise<EmbeddedMongo & { kind: string }> {
  const mongod = await findMongod();
  if (mongod) {
    say(`Starting mongod on 127.0.0.1:${port} (data in ${path.join(dataDir, 'mongo')})...`);
    return { kind: 'mongod', ...(await startMongod(mongod, path.join(dataDir, 'mongo'), port)) };
  }
  const ferretdb = await ensureFerretDb(say);
  say(`Starting FerretDB on 127.0.0.1:${port} (SQLite data in ${path.join(dataDir, 'ferretdb')})...`);
  return { kind: 'FerretDB', ...(await startFerretDb(ferretdb, path.join(dataDir, 'ferretdb'), port)) };
}
