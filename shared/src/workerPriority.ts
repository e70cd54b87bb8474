import { readdirSync } from 'node:fs';
import os from 'node:os';
import { parse, type Schema } from './config';
import type { Logger } from './logger';
import { runService } from './main';

/** What every worker process adds to its service's settings: how far it stands back for the API's processes. */
export const workerPriorityConfigSchema = {
  workerNice: {
    env: 'WORKER_NICE',
    doc: "the worker process's CPU priority as a nice value, 0 (as the API's) to 19 (the lowest): on a machine it shares with the API, a higher value leaves the CPU to requests first during its background passes (themes, indexing, imports), which then wait under load",
    default: 0,
    parse: parse.int(0, 19),
  },
} satisfies Schema;

/**
 * Lowers this process's CPU priority to `nice`. On Linux a nice value belongs to a thread, so each thread
 * of the process is set (V8's and libuv's, started before this runs); threads started later inherit it.
 * A refusal (a platform without it, a sandbox) leaves the priority as it was and says so.
 */
export function lowerPriority(nice: number, logger: Logger): void {
  if (nice === 0) return;
  try {
    os.setPriority(0, nice);
    if (process.platform === 'linux')
      for (const thread of readdirSync('/proc/self/task')) os.setPriority(Number(thread), nice);
  } catch (error) {
    logger.warn({ err: error, nice }, 'could not lower the worker process priority; it runs at the default');
  }
}

/** A worker process (a service's background work): runService, at the priority its configuration gives. */
export function runWorkerProcess<C extends { logLevel: string; shutdownTimeoutMs: number; workerNice: number }>(
  name: string,
  loadConfig: () => C,
  start: (config: C, logger: Logger) => Promise<{ close(timeoutMs?: number): Promise<void> }>,
): void {
  runService(name, loadConfig, (config, logger) => {
    lowerPriority(config.workerNice, logger);
    return start(config, logger);
  });
}
