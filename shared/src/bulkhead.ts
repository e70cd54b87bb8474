import { withoutStack } from './errors';

/**
 * What a bulkhead says when a task would wait longer than the bound (refused at once), waited that long,
 * or found its lane's queue at its memory cap.
 */
export class BulkheadRefused extends Error {
  override name = 'BulkheadRefused';
  constructor(readonly reason: 'queue full' | 'would wait too long' | 'waited too long') {
    super(reason);
  }
}

/** A refusal is an answer under load, not a fault: no stack (see withoutStack). */
const refused = (reason: BulkheadRefused['reason']) => withoutStack(() => new BulkheadRefused(reason));

export interface BulkheadOptions {
  /** Tasks of one lane running at once. */
  concurrency: number;
  /** Tasks of all lanes running at once (unbounded when omitted). */
  total?: number;
  /** Tasks of one lane that may wait at most (a memory cap: the wait is what bounds a queue). */
  queue: number;
  /** Longest wait for a place: a task that would wait longer is refused at once, one that did is refused then. */
  maxWaitMs: number;
}

/** Weight of the latest task in the running average of how long tasks hold a place. */
const AVERAGE_WEIGHT = 0.2;

interface Waiter {
  admit: () => void;
}

interface Lane {
  active: number;
  waiting: Waiter[];
  /** When the lane last got a place; lanes served longer ago go first. */
  servedAt: number;
  /** How long this lane's tasks held a place lately (ms), once one has finished. */
  holdMs: number | undefined;
}

/**
 * Concurrency limits per lane (an organization, an API key): at most `concurrency` tasks of a lane and
 * `total` of all lanes run at once; more of a lane wait for at most `maxWaitMs`. A burst is shed by the
 * time its tasks would wait, not by their number: a task is queued when the tasks ahead of it in its
 * lane would, at the lane's recent pace (how long its tasks held a place; the whole bulkhead's before
 * the lane has one), let it start within `maxWaitMs`, and is refused at once otherwise; `queue` only caps
 * the memory a lane's queue may take. So 55 quick writes at once all pass when they finish within the
 * wait, and a flood of slow ones is refused at once instead of as a timeout. A freed place goes to the
 * waiting lane with the fewest tasks running, and among those to the one served longest ago: a lane
 * that sends one request now and then gets the next place even while another lane keeps hundreds
 * waiting.
 */
export class Bulkhead {
  private readonly lanes = new Map<string, Lane>();
  private running = 0;
  private served = 0;
  /** How long tasks of any lane held a place lately (ms): the pace of a lane with none of its own. */
  private holdMs: number | undefined;

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
      lane = { active: 0, waiting: [], servedAt: 0, holdMs: undefined };
      this.lanes.set(name, lane);
    }
    const current = lane;
    let released = false;
    let startedAt = 0;
    const release = () => {
      if (released) return;
      released = true;
      this.recordHold(current, performance.now() - startedAt);
      current.active -= 1;
      this.running -= 1;
      if (current.active === 0 && current.waiting.length === 0) this.lanes.delete(name);
      this.dispatch();
    };
    if (current.waiting.length === 0 && this.hasRoom(current)) {
      this.start(current);
      startedAt = performance.now();
      return Promise.resolve(release);
    }
    const refusal =
      current.waiting.length >= this.options.queue
        ? 'queue full'
        : this.expectedWaitMs(current) > this.options.maxWaitMs
          ? 'would wait too long'
          : null;
    if (refusal) {
      if (current.active === 0 && current.waiting.length === 0) this.lanes.delete(name);
      return Promise.reject(refused(refusal));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          startedAt = performance.now();
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        current.waiting.splice(current.waiting.indexOf(waiter), 1);
        if (current.active === 0 && current.waiting.length === 0) this.lanes.delete(name);
        reject(refused('waited too long'));
      }, this.options.maxWaitMs);
      current.waiting.push(waiter);
    });
  }

  /** Tasks of `lane` running now (for tests and metrics). */
  runningIn(lane: string): number {
    return this.lanes.get(lane)?.active ?? 0;
  }

  /**
   * How long a task joining `lane`'s queue now would wait: the tasks ahead of it and itself start
   * `concurrency` at a time, each round as long as the lane's tasks have lately held a place. Zero
   * before any task has finished (nothing to go by: the wait's own bound applies).
   */
  private expectedWaitMs(lane: Lane): number {
    const holdMs = lane.holdMs ?? this.holdMs ?? 0;
    return Math.ceil((lane.waiting.length + 1) / this.options.concurrency) * holdMs;
  }

  private recordHold(lane: Lane, ms: number): void {
    const average = (previous: number | undefined) =>
      previous === undefined ? ms : previous + AVERAGE_WEIGHT * (ms - previous);
    lane.holdMs = average(lane.holdMs);
    this.holdMs = average(this.holdMs);
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
