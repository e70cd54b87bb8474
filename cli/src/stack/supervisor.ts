import type { ServiceProcess } from './serviceProcess';

export interface RestartPolicy {
  /** Crashes allowed within `windowMs`; one more and the stack gives up. */
  maxCrashes: number;
  windowMs: number;
  /** Wait before the first restart; doubled after each crash in the window, up to `maxBackoffMs`. */
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxCrashes: 5,
  windowMs: 60_000,
  initialBackoffMs: 500,
  maxBackoffMs: 8_000,
};

export interface SupervisorEvents {
  /** The service crashed and will be started again after `delayMs`. */
  restarting(name: string, code: number | null, signal: string | null, delayMs: number, crashes: number): void;
  restarted(name: string, pid: number | undefined): void;
  /** Too many crashes in the window: the caller stops the stack. */
  gaveUp(name: string, crashes: number): void;
}

/**
 * Keeps one service process running: when it exits unasked, it is started again after a back-off that
 * doubles with each crash, and given up on after `maxCrashes` crashes within `windowMs` (a service
 * that cannot start would otherwise restart forever and hide the reason).
 */
export class SupervisedService {
  private process: ServiceProcess;
  private readonly crashes: number[] = [];
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly spawn: () => ServiceProcess,
    private readonly events: SupervisorEvents,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {
    this.process = this.start();
  }

  get current(): ServiceProcess {
    return this.process;
  }

  get name(): string {
    return this.process.name;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.process.stop();
  }

  private start(): ServiceProcess {
    const process = this.spawn();
    process.child.once('exit', (code, signal) => this.onExit(process, code, signal));
    return process;
  }

  private onExit(process: ServiceProcess, code: number | null, signal: string | null): void {
    if (this.stopped || process !== this.process) return;
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && this.crashes[0] <= now - this.policy.windowMs) this.crashes.shift();
    if (this.crashes.length > this.policy.maxCrashes) {
      this.stopped = true;
      this.events.gaveUp(process.name, this.crashes.length);
      return;
    }
    const delayMs = Math.min(this.policy.maxBackoffMs, this.policy.initialBackoffMs * 2 ** (this.crashes.length - 1));
    this.events.restarting(process.name, code, signal, delayMs, this.crashes.length);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped) return;
      this.process = this.start();
      this.events.restarted(this.process.name, this.process.child.pid);
    }, delayMs);
  }
}
