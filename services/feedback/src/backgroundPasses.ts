/** A background worker's handle: close stops its timer and waits for a pass under way. */
export interface BackgroundWorker {
  close(): Promise<void>;
}

/**
 * Runs `pass` now and every `intervalMs`, never two at once (a tick while one runs is skipped); a failed
 * pass is reported and the next tick tries again. `pass` is given `closed`, to stop between organizations
 * once the worker is closing.
 */
export function runPasses(
  intervalMs: number,
  pass: (closed: () => boolean) => Promise<void>,
  failed: (error: unknown) => void,
): BackgroundWorker {
  let running: Promise<void> | null = null;
  let closing = false;
  const closed = () => closing;
  const tick = () => {
    if (running || closing) return;
    running = pass(closed)
      .catch(failed)
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async close() {
      closing = true;
      clearInterval(timer);
      await running;
    },
  };
}
