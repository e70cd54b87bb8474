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
  /** Tasks of all lanes running at once (unbounded when omitted). */
  total?: number;
  /** Tasks of one lane that may wait for a place; more are refused at once. */
  queue: number;
  /** Longest wait for a place before the task is refused. */
  maxWaitMs: number;
}

interface Waiter {
  admit: () => void;
}

interface Lane {
  active: number;
  waiting: Waiter[];
  /** When the lane last got a place; lanes served longer ago go first. */
  servedAt: number;
}

/**
 * Concurrency limits per lane (an organization, an API key): at most `concurrency` tasks of a lane and
 * `total` of all lanes run at once; up to `queue` more of a lane wait for at most `maxWaitMs`, and
 * anything beyond is refused at once. A freed place goes to the waiting lane with the fewest tasks
 * running, and among those to the one served longest ago: a lane that sends one request now and then
 * gets the next place even while another lane keeps hundreds waiting. A refusal comes quickly instead
 * of as a timeout.
 */
export class Bulkhead {
  private readonly lanes = new Map<string, Lane>();
  private running = 0;
  private served = 0;

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
  acquire(name: string): Promise<() => void> {
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = { active: 0, waiting: [], servedAt: 0 };
      this.lanes.set(name, lane);
    }
    const current = lane;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      current.active -= 1;
      this.running -= 1;
      if (current.active === 0 && current.waiting.length === 0) this.lanes.delete(name);
      this.dispatch();
    };
    if (current.waiting.length === 0 && this.hasRoom(current)) {
      this.start(current);
      return Promise.resolve(release);
    }
    if (current.waiting.length >= this.options.queue) {
      if (current.active === 0) this.lanes.delete(name);
      return Promise.reject(new BulkheadRefused('queue full'));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        current.waiting.splice(current.waiting.indexOf(waiter), 1);
        if (current.active === 0 && current.waiting.length === 0) this.lanes.delete(name);
        reject(new BulkheadRefused('waited too long'));
      }, this.options.maxWaitMs);
      current.waiting.push(waiter);
    });
  }

  /** Tasks of `lane` running now (for tests and metrics). */
  runningIn(lane: string): number {
    return this.lanes.get(lane)?.active ?? 0;
  }

  private hasRoom(lane: Lane): boolean {
    return lane.active < this.options.concurrency && this.running < (this.options.total ?? Infinity);
  }

  private start(lane: Lane): void {
    lane.active += 1;
    this.running += 1;
    lane.servedAt = ++this.served;
  }

  /** Hands free places to waiting lanes: fewest running first, then the one served longest ago. */
  private dispatch(): void {
    while (this.running < (this.options.total ?? Infinity)) {
      let next: Lane | undefined;
      for (const lane of this.lanes.values()) {
        if (lane.waiting.length === 0 || lane.active >= this.options.concurrency) continue;
        if (!next || lane.active < next.active || (lane.active === next.active && lane.servedAt < next.servedAt))
          next = lane;
      }
      if (!next) return;
      this.start(next);
      next.waiting.shift()?.admit();
    }
  }
}
