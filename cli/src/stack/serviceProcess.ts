import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, fchmodSync, mkdirSync, openSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { stopChild } from '../embedded/stopChild';

const ROOT = path.resolve(__dirname, '../../..');

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts one service as its own process (as in production), its JSON log lines going to a file. */
export function spawnService(
  name: string,
  entry: string,
  port: number,
  env: NodeJS.ProcessEnv,
  logDir: string,
): ServiceProcess {
  mkdirSync(logDir, { recursive: true });
  const file = path.join(logDir, `${name}.log`);
  // Readable by the one who runs the stack only: in development the identity service logs single-use
  // invitation and password-reset links there. The mode of a file made by an earlier run is set too.
  const fd = openSync(file, 'a', 0o600);
  fchmodSync(fd, 0o600);
  const log = createWriteStream(file, { fd });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return {
    name,
    url: `http://localhost:${port}`,
    child,
    stop: () => stopChild(child),
  };
}

/**
 * The status of GET /ready, or null when nothing answers. Plain node:http, not fetch: fetch refuses the
 * ports browsers block (6000, 6665-6669, ...), on which a service may well be listening.
 */
export function readyStatus(url: string, timeoutMs = 2_000): Promise<number | null> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/ready`, { timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode ?? null);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}

/** Resolves when GET /ready answers 200; rejects when the process dies or time runs out. */
export async function waitUntilReady(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) {
      throw new Error(`${service.name} exited with code ${service.child.exitCode} (see its log)`);
    }
    if ((await readyStatus(service.url)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${service.name} was not ready within ${timeoutMs / 1000} s (see its log)`);
}
