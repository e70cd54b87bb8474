/** What a bulkhead says when a lane is full and its queue too, or a queued task waited too long. */
export class BulkheadRefused extends Error {
  override name = 'BulkheadRefused';
  constructor(readonly reason: 'queue full' | 'waited too long') {
    super(reason);
  }
}

export interface BulkheadOptions {
  /** Tasks of one lane running at once. */
  concurrency: number;
  /** Tasks of one lane that may wait for a place; more are refused at once. */
  queue: number;
  /** Longest wait for a place before the task is refused. */
  maxWaitMs: number;
}

interface Lane {
  active: number;
  waiting: Array<{ admit: () => void }>;
}

/**
 * Concurrency limits per lane (an organization, an API key): at most `concurrency` tasks of a lane run
 * at once, up to `queue` more wait in order of arrival for at most `maxWaitMs`, and anything beyond is
 * refused at once. One lane's load can then take no more than its share of what is behind the
 * bulkhead, and a refusal comes quickly instead of as a timeout.
 */
export class Bulkhead {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly options: BulkheadOptions) {}

  /** Runs `task` in `lane`'s share; rejects with BulkheadRefused when no place came free in time. */
  async run<T>(lane: string, task: () => Promise<T> | T): Promise<T> {
    const release = await this.acquire(lane);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Waits for a place in `lane`; resolves to the function that gives it back (call it once). */
  acquire(lane: string): Promise<() => void> {
    let state = this.lanes.get(lane);
    if (!state) {
      state = { active: 0, waiting: [] };
      this.lanes.set(lane, state);
    }
    const current = state;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = current.waiting.shift();
      if (next) next.admit();
      else if (--current.active === 0) this.lanes.delete(lane);
    };
    if (current.active < this.options.concurrency) {
      current.active += 1;
      return Promise.resolve(release);
    }
    if (current.waiting.length >= this.options.queue) return Promise.reject(new BulkheadRefused('queue full'));
    return new Promise((resolve, reject) => {
      // A place handed over by `release` keeps `active` as it is: one task leaves, this one enters.
      const waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        current.waiting.splice(current.waiting.indexOf(waiter), 1);
        reject(new BulkheadRefused('waited too long'));
      }, this.options.maxWaitMs);
      current.waiting.push(waiter);
    });
  }

  /** Tasks of `lane` running now (for tests and metrics). */
  running(lane: string): number {
    return this.lanes.get(lane)?.active ?? 0;
  }
}
