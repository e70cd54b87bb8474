import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findGo, installedTool, machineCachePath } from './goTools';
import { waitForMongo } from './waitForMongo';
import { stopChild } from './stopChild';

const run = promisify(execFile);

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';

export type Say = (message: string) => void;

/**
 * FerretDB v1.24.2 on SQLite indexes `_id` as `_ferretdb_sjson->"_id"` but filters a lone `_id` (find,
 * update, delete) on `_ferretdb_sjson->'$._id'`: the same value, yet not the indexed expression, so SQLite
 * scans the collection until the document turns up (the newest of 100,000 feedback items: about a second).
 * The build filters on the indexed expression, so a lone `_id` is the primary-key lookup the services rely
 * on. The patch names the cached binary: a build without it is never mistaken for one with it.
 */
const ID_FILTER_PATCH = {
  name: 'id-index',
  file: 'internal/backends/sqlite/metadata/metadata.go',
  from: `IDColumn = DefaultColumn + "->'$._id'"`,
  to: 'IDColumn = DefaultColumn + `->"_id"`',
};

export function ferretDbCachePath(): string {
  return machineCachePath(`ferretdb-${FERRETDB_VERSION}-${ID_FILTER_PATCH.name}`);
}

/**
 * The FerretDB binary: FERRETDB_BIN, else the per-machine cache, else built from the Go module proxy.
 * `go install ...@version` is not used because it also asks the proxy for the module's version list,
 * which some proxies refuse; downloading the exact version and building it needs only that version.
 * The module archive lacks the version file FerretDB's build expects, so it is written before building,
 * and the `_id` filter is patched (see ID_FILTER_PATCH).
 */
export async function ensureFerretDb(say: Say): Promise<string> {
  const target = ferretDbCachePath();
  const installed = installedTool('FERRETDB_BIN', target);
  if (installed) return installed;

  const go = await findGo('FerretDB is not installed; install Go, or set MONGODB_URI to a MongoDB server');
  say(`Building FerretDB ${FERRETDB_VERSION} with Go into ${target} (first run on this machine only; about 2-4 minutes)...`);
  const started = Date.now();
  const { stdout } = await run(go, ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const moduleDir = (JSON.parse(stdout) as { Dir: string }).Dir;
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'ferretdb-src-'));
  try {
    cpSync(moduleDir, buildDir, { recursive: true });
    makeWritable(buildDir);
    writeFileSync(path.join(buildDir, 'build/version/version.txt'), `${FERRETDB_VERSION}\n`);
    patchIdFilter(buildDir);
    mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.partial-${process.pid}`;
    await run(go, ['build', '-o', partial, './cmd/ferretdb'], { cwd: buildDir, maxBuffer: 64 * 1024 * 1024 });
    renameSync(partial, target);
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
  say(`FerretDB built in ${Math.round((Date.now() - started) / 1000)} s.`);
  return target;
}

function patchIdFilter(buildDir: string): void {
  const file = path.join(buildDir, ID_FILTER_PATCH.file);
  const source = readFileSync(file, 'utf8');
  if (!source.includes(ID_FILTER_PATCH.from)) throw new Error(`FerretDB ${FERRETDB_VERSION}: ${ID_FILTER_PATCH.file} has no \`${ID_FILTER_PATCH.from}\` to patch`);
  writeFileSync(file, source.replace(ID_FILTER_PATCH.from, ID_FILTER_PATCH.to));
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) makeWritable(full);
    else chmodSync(full, 0o644);
  }
}

export interface EmbeddedMongo {
  uri: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts FerretDB on SQLite files in `dataDir`, listening on loopback only. */
export async function startFerretDb(binary: string, dataDir: string, port: number): Promise<EmbeddedMongo> {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    binary,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${dataDir}`,
      '--telemetry=disable',
      '--debug-addr=-',
      '--log-level=error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const uri = `mongodb://127.0.0.1:${port}/`;
  try {
    await waitForMongo(uri, child, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`FerretDB did not start: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return {
    uri,
    process: child,
    stop: () => stopChild(child),
  };
}
