import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, stopChild } from '@fi/cli/embedded';
import { readyStatus } from '@fi/cli';
import { load, type LoadRequest } from './load';

const ROOT = path.resolve(__dirname, '..');
const READY_TIMEOUT_MS = 120_000;

/** How the gateway is run: from its sources through tsx (`npm start`), or compiled (the image). */
const BUILDS = {
  sources: ['--import', 'tsx', path.join(ROOT, 'gateway/src/main.ts')],
  compiled: ['--conditions=production', path.join(ROOT, 'gateway/dist/main.js')],
} as const;
export type Build = keyof typeof BUILDS;

export interface BuildPoint {
  build: Build;
  /** Spawn to the first 200 of /ready, per start. */
  startMs: number[];
  /** Resident memory once ready, and after the load, in MiB (median of the starts). */
  readyRssMiB: number;
  loadedRssMiB: number;
  /** Requests per second and p50 of the same short load on every start (median of the starts). */
  rps: number;
  p50: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const rssMiB = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** One start of the gateway as `build`: time to ready, memory, and a short varied load. */
async function startOnce(build: Build, env: NodeJS.ProcessEnv, requests: LoadRequest[]) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, [...BUILDS[build]], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    while ((await readyStatus(url)) !== 200) {
      if (child.exitCode !== null) throw new Error(`the ${build} gateway exited with code ${child.exitCode}`);
      if (Date.now() - started > READY_TIMEOUT_MS)
        throw new Error(`the ${build} gateway was not ready within ${READY_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const startMs = Date.now() - started;
    const readyRss = rssMiB(child.pid as number);
    const result = await load(`${url}/graphql`, requests, {
      connections: 10,
      durationSeconds: 5,
      warmupSeconds: 2,
      timeoutSeconds: 30,
    });
    return { startMs, readyRss, loadedRss: rssMiB(child.pid as number), rps: result.rps, p50: result.p50 };
  } finally {
    await stopChild(child);
  }
}

/**
 * The gateway run from its sources and compiled, started `rounds` times each, alternating, against the
 * same running subgraphs: start-up time, memory, and throughput of the same varied requests.
 */
export async function compareBuilds(
  env: NodeJS.ProcessEnv,
  requests: LoadRequest[],
  rounds: number,
  say: (line: string) => void,
): Promise<BuildPoint[]> {
  const runs = new Map<Build, Array<Awaited<ReturnType<typeof startOnce>>>>([
    ['sources', []],
    ['compiled', []],
  ]);
  for (let round = 0; round < rounds; round += 1) {
    for (const build of Object.keys(BUILDS) as Build[]) {
      const run = await startOnce(build, env, requests);
      runs.get(build)!.push(run);
      say(
        `gateway from ${build}: ready in ${run.startMs} ms, ${run.readyRss.toFixed(0)} MiB, ${Math.round(run.rps)} req/s (p50 ${run.p50.toFixed(1)} ms), ${run.loadedRss.toFixed(0)} MiB after`,
      );
    }
  }
  return [...runs].map(([build, list]) => ({
    build,
    startMs: list.map((run) => run.startMs),
    readyRssMiB: median(list.map((run) => run.readyRss)),
    loadedRssMiB: median(list.map((run) => run.loadedRss)),
    rps: median(list.map((run) => run.rps)),
    p50: median(list.map((run) => run.p50)),
  }));
}

export function buildsMarkdown(points: BuildPoint[]): string[] {
  return [
    'The gateway from its sources (tsx, as `npm start`) and compiled (`npm run build`, as the image), each started in turn against the same subgraphs; memory and throughput are medians of the starts, the load 5 s of 10 connections of varied `accountItem` requests after 2 s of warm-up:',
    '',
    '| Build | Ready after (ms, each start) | Median ready ms | RSS ready (MiB) | RSS after load (MiB) | req/s | p50 ms |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...points.map(
      (p) =>
        `| ${p.build} | ${p.startMs.join(', ')} | ${median(p.startMs)} | ${p.readyRssMiB.toFixed(0)} | ${p.loadedRssMiB.toFixed(0)} | ${Math.round(p.rps)} | ${p.p50.toFixed(1)} |`,
    ),
  ];
}
