import { loadFeedbackConfig, loadFeedbackWorkerConfig, startFeedbackService, startFeedbackWorker } from '@fi/feedback';
import { freePort } from '@fi/cli/embedded';
import type { Logger } from '@fi/shared';
import type { RunningSubgraph } from '@fi/shared/database';
import { spawnEntry, untilReady, type Spawned } from './processes';

/**
 * The feedback service as production runs it, its API and its worker (the background work) on one
 * configuration, in this process: what it returns is the API, whose `close` stops both.
 */
export async function startFeedbackWithWorker(env: NodeJS.ProcessEnv, logger: Logger): Promise<RunningSubgraph> {
  const api = await startFeedbackService(loadFeedbackConfig(env), logger);
  const worker = await startFeedbackWorker(loadFeedbackWorkerConfig({ ...env, PORT: '0' }), logger);
  return {
    ...api,
    close: async (timeoutMs) => {
      await Promise.all([api.close(timeoutMs), worker.close(timeoutMs)]);
    },
  };
}

export interface SpawnedFeedback {
  api: Spawned;
  worker: Spawned;
  workerUrl: string;
  /** Kills both processes with SIGKILL and waits for them to be gone. */
  kill(): Promise<void>;
}

/**
 * The feedback service as its own processes, as `npm start` and the image run it: the API (main.ts) on
 * `env.PORT` and the worker (worker.ts) on a free port of its own, both ready when this resolves.
 */
export async function spawnFeedbackWithWorker(env: NodeJS.ProcessEnv): Promise<SpawnedFeedback> {
  const workerUrl = `http://127.0.0.1:${await freePort()}`;
  const api = spawnEntry('services/feedback/src/main.ts', env);
  const worker = spawnEntry('services/feedback/src/worker.ts', { ...env, PORT: new URL(workerUrl).port });
  const kill = async () => {
    api.child.kill('SIGKILL');
    worker.child.kill('SIGKILL');
    await Promise.all([api.exited, worker.exited]);
  };
  try {
    await untilReady(`http://127.0.0.1:${env.PORT}`, 'the feedback service');
    await untilReady(workerUrl, 'the feedback worker');
  } catch (error) {
    await kill();
    throw error;
  }
  return { api, worker, workerUrl, kill };
}
