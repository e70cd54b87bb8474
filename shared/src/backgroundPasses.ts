/** A background worker's handle: close stops its timer and waits for a pass under way. */
export interface BackgroundWorker {
  close(): Promise<void>;
}

/** A loop of passes that can also be asked for a pass now. */
export interface WakeableWorker extends BackgroundWorker {
  /** Runs a pass soon: at once when none runs, else once more after the one under way. */
  wake(): void;
}

/**
 * Runs `pass` now and every `intervalMs`, never two at once (a tick while one runs is remembered by
 * `wake` only); a failed pass is reported and the next tick tries again. `pass` is given `closed`, to
 * stop between organizations once the worker is closing.
 */
export function runPasses(
  intervalMs: number,
  pass: (closed: () => boolean) => Promise<void>,
  failed: (error: unknown) => void,
): WakeableWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let closing = false;
  const closed = () => closing;
  const run = () => {
    running = pass(closed)
      .catch(failed)
      .finally(() => {
        running = null;
        if (again && !closing) {
          again = false;
          run();
        }
      });
  };
  const tick = () => {
    if (running || closing) return;
    run();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    wake() {
      if (closing) return;
      if (running) again = true;
      else run();
    },
    async close() {
      closing = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
