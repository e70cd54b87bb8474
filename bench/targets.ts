import { randomBytes } from 'node:crypto';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, stopChild } from '@fi/cli/embedded';
import { type ServiceProcess, spawnService, waitUntilReady } from '@fi/cli';
import type { SubgraphName } from './scenarios';

const ROOT = path.resolve(__dirname, '..');
export const PEERS_DIR = path.join(__dirname, '.peers');
export const HIVE_GATEWAY_VERSION = '2.15.1';
/** Hive Router's Rust query planner for Hive Gateway; its native addon for linux-x64 ships inside the package. */
export const HIVE_ROUTER_RUNTIME_VERSION = '1.4.23';
// As the tests' PROCESS_START_MS: tsx compiles on start, over 60 s with both cores busy.
const READY_TIMEOUT_MS = 120_000;

export interface Running {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const asRunning = (service: ServiceProcess): Running => ({
  name: service.name,
  url: `${service.url}/graphql`,
  pid: service.child.pid ?? 0,
  stop: service.stop,
});

async function startService(name: string, entry: string, env: NodeJS.ProcessEnv, logDir: string): Promise<Running> {
  // A fresh key for webhook secrets (required by the feedback service): the benchmark adds no endpoints.
  const production = { NODE_ENV: 'production', LOG_LEVEL: 'warn', WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex') };
  const service = spawnService(name, entry, await freePort(), { ...production, ...env }, logDir);
  // A service that never got ready is stopped here: the run's cleanups only know the ones that started.
  await waitUntilReady(service, READY_TIMEOUT_MS).catch(async (error: unknown) => {
    await service.stop();
    throw error;
  });
  return asRunning(service);
}

export async function startSubgraphs(
  envOf: (name: SubgraphName) => NodeJS.ProcessEnv,
  logDir: string,
): Promise<Record<SubgraphName, Running>> {
  const [feedback, contacts, accounts] = await Promise.all(
    (['feedback', 'contacts', 'accounts'] as const).map((name) =>
      startService(name, `services/${name}/src/main.ts`, envOf(name), logDir),
    ),
  );
  return { feedback, contacts, accounts };
}

export function startIdentity(env: NodeJS.ProcessEnv, logDir: string): Promise<Running> {
  return startService('identity', 'services/identity/src/main.ts', env, logDir);
}

/**
 * The integrations subgraph, which the gateway's readiness waits for (a supergraph member): the bench
 * sends it nothing. A fresh key for connections' secrets, which it requires.
 */
export function startIntegrations(env: NodeJS.ProcessEnv, logDir: string): Promise<Running> {
  return startService(
    'integrations',
    'services/integrations/src/main.ts',
    { INTEGRATIONS_SECRET_KEY: randomBytes(32).toString('hex'), ...env },
    logDir,
  );
}

/**
 * The feedback service's worker process (themes and their day figures, the search index, the change relay,
 * exports): what `--scale` waits for after each seed, as a reader waits for it after an import.
 */
export function startFeedbackWorker(env: NodeJS.ProcessEnv, logDir: string): Promise<Running> {
  return startService('feedback-worker', 'services/feedback/src/worker.ts', env, logDir);
}

export async function startOurGateway(
  env: NodeJS.ProcessEnv,
  subgraphs: Record<SubgraphName, Running>,
  logDir: string,
  cpuProfileDir?: string,
): Promise<Running> {
  const gatewayEnv = {
    ...env,
    FEEDBACK_URL: subgraphs.feedback.url,
    CONTACTS_URL: subgraphs.contacts.url,
    ACCOUNTS_URL: subgraphs.accounts.url,
  };
  if (!cpuProfileDir) return startService('gateway', 'gateway/src/main.ts', gatewayEnv, logDir);
  // node refuses --cpu-prof in NODE_OPTIONS, so this one is spawned with it on the command line; the
  // profile is written when the gateway exits after SIGTERM.
  const port = await freePort();
  const child = spawnLogged(
    'gateway',
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`, '--import', 'tsx', path.join(ROOT, 'gateway/src/main.ts')],
    { NODE_ENV: 'production', LOG_LEVEL: 'warn', ...gatewayEnv, PORT: String(port) },
    ROOT,
    logDir,
  );
  const url = `http://localhost:${port}/graphql`;
  await waitForPost('gateway', child, url);
  return { name: 'gateway', url, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

const PEERS: Record<string, string> = {
  '@graphql-hive/gateway': HIVE_GATEWAY_VERSION,
  '@graphql-hive/router-runtime': HIVE_ROUTER_RUNTIME_VERSION,
};

function installedVersion(pkg: string): string | null {
  const manifest = path.join(PEERS_DIR, 'node_modules', ...pkg.split('/'), 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : null;
}

/** Installs Hive Gateway and its Rust planner into bench/.peers (never into the project's dependencies), once per version. */
export async function ensureHiveGateway(say: (line: string) => void): Promise<string> {
  const bin = path.join(PEERS_DIR, 'node_modules', '.bin', 'hive-gateway');
  if (Object.entries(PEERS).every(([pkg, version]) => installedVersion(pkg) === version)) return bin;
  const specs = Object.entries(PEERS).map(([pkg, version]) => `${pkg}@${version}`);
  say(`Installing ${specs.join(' and ')} into bench/.peers (once; about a minute)...`);
  mkdirSync(PEERS_DIR, { recursive: true });
  writeFileSync(path.join(PEERS_DIR, 'package.json'), JSON.stringify({ name: 'bench-peers', private: true }, null, 2));
  await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...specs], {
    cwd: PEERS_DIR,
    maxBuffer: 64 * 1024 * 1024,
  });
  return bin;
}

/** The checked-in supergraph with the subgraph URLs of this run, for Hive Gateway (ours takes them from env). */
export function writeBenchSupergraph(subgraphs: Record<SubgraphName, Running>, dir: string): string {
  let sdl = readFileSync(path.join(ROOT, 'supergraph.graphql'), 'utf8');
  for (const [name, { url }] of Object.entries(subgraphs)) {
    sdl = sdl.replace(new RegExp(`(@join__graph\\(name: "${name}", url: ")[^"]*(")`), `$1${url}$2`);
  }
  const file = path.join(dir, 'supergraph.graphql');
  writeFileSync(file, sdl);
  return file;
}

function spawnLogged(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  logDir: string,
): ChildProcess {
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

async function waitForPost(name: string, child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} (see its log)`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not answer within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Hive Gateway with one worker process, as many as ours; `rust` swaps in Hive Router's query planner. */
export async function startHiveGateway(
  bin: string,
  supergraphFile: string,
  logDir: string,
  planner: 'default' | 'rust',
): Promise<Running> {
  const port = await freePort();
  const name = planner === 'rust' ? 'hive-gateway-rust' : 'hive-gateway';
  const child = spawnLogged(
    name,
    bin,
    [
      'supergraph',
      supergraphFile,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--fork',
      '1',
      '-c',
      path.join(__dirname, 'hive', 'gateway.config.mjs'),
      ...(planner === 'rust' ? ['--hive-router-runtime'] : []),
    ],
    { NODE_ENV: 'production' },
    PEERS_DIR,
    logDir,
  );
  const url = `http://127.0.0.1:${port}/graphql`;
  await waitForPost(name, child, url);
  return { name, url, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

/** A bare node:http server replaying `body` (`ceilingServer.ts`): what the runtime can do with no GraphQL work at all. */
export async function startCeiling(body: string, dir: string, logDir: string): Promise<Running> {
  const bodyFile = path.join(dir, `ceiling-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(bodyFile, body);
  return startBareServer('ceiling', 'ceilingServer.ts', { BODY_FILE: bodyFile }, logDir);
}

/** One more hop and nothing else (`passThroughServer.ts`): each body forwarded to `upstreamUrl`. */
export function startPassThrough(upstreamUrl: string, logDir: string): Promise<Running> {
  return startBareServer('pass-through', 'passThroughServer.ts', { UPSTREAM_URL: upstreamUrl }, logDir);
}

/** A bare node:http reference server of this folder, on a free loopback port, once it answers a POST. */
async function startBareServer(name: string, script: string, env: NodeJS.ProcessEnv, logDir: string): Promise<Running> {
  const port = await freePort();
  const child = spawnLogged(
    name,
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, script)],
    { ...env, PORT: String(port) },
    ROOT,
    logDir,
  );
  const url = `http://127.0.0.1:${port}/graphql`;
  await waitForPost(name, child, url);
  return { name, url, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms; null where /proc cannot tell. */
export function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Peak resident memory of a process (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}
