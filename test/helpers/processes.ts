import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** The file `npm run build` compiles a source entry to: `<workspace>/src/x.ts` becomes `<workspace>/dist/x.js`. */
export const compiledEntry = (entry: string): string => entry.replace('/src/', '/dist/').replace(/\.ts$/, '.js');

/**
 * Runs a service entry point as its own process, as `npm start` does (the sources through tsx) or, with
 * `compiled`, as the image does (the built JavaScript, workspaces resolved to their `dist/`).
 */
export function spawnEntry(entry: string, env: NodeJS.ProcessEnv, { compiled = false } = {}): Spawned {
  const args = compiled
    ? ['--conditions=production', path.join(ROOT, compiledEntry(entry))]
    : ['--import', 'tsx', path.join(ROOT, entry)];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Polls until `check` passes or the time is up (bounded; no fixed sleeps). */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * How long a spawned service may take to get ready: tsx compiles it on start, which takes a few seconds
 * on an idle machine and, seen on this 2-core machine with both cores busy, over 30 s.
 */
export const PROCESS_START_MS = 120_000;

/** Waits until the service at `url` answers /ready. */
export function untilReady(url: string, what: string): Promise<void> {
  return eventually(() => isReady(url), PROCESS_START_MS, what);
}

export async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/ready`)).ok;
  } catch {
    return false;
  }
}
