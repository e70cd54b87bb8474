import type { PullSync, SyncOutcome } from './pullSync';
import type { PullConnection } from './pullTypes';

/** The active pull connections (their credentials decrypted for the call). */
export interface PullConnections {
  active(): Promise<PullConnection[]>;
}

export interface PullWorkerOptions {
  /** How often the worker looks for connections due for a sync. */
  pollMs: number;
  /** Connections synced at once by one worker: one slow platform does not hold up the others. */
  concurrency: number;
}

/**
 * Looks for due pull connections every `pollMs` and syncs them, a few at once; any number of workers may
 * run (each connection's lease lets one sync it at a time). `stop` lets each sync finish its page.
 */
export class PullWorker {
  private timer: NodeJS.Timeout | null = null;
  private turn: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly sync: PullSync,
    private readonly connections: PullConnections,
    private readonly options: PullWorkerOptions,
    private readonly onError: (error: unknown, connection?: PullConnection) => void,
    private readonly onOutcome: (connection: PullConnection, outcome: SyncOutcome) => void = () => undefined,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** One pass over the due connections (what each tick does). */
  async runOnce(): Promise<void> {
    const queue = await this.connections.active();
    const lanes = Array.from({ length: Math.min(this.options.concurrency, queue.length) }, async () => {
      for (let connection = queue.shift(); connection && !this.stopping; connection = queue.shift()) {
        try {
          this.onOutcome(connection, await this.sync.run(connection, () => this.stopping));
        } catch (error) {
          this.onError(error, connection);
        }
      }
    });
    await Promise.all(lanes);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.turn;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.turn = this.runOnce()
        .catch((error: unknown) => this.onError(error))
        .finally(() => {
          if (!this.stopping) this.schedule(this.options.pollMs);
        });
    }, delayMs);
  }
}
