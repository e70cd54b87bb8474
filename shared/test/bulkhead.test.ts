import { Bulkhead, BulkheadRefused } from '../src/bulkhead';

/** A task that runs until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { task: () => opened, open };
}

describe('a bulkhead', () => {
  test('when a lane is at its limit, then further tasks wait in order, and beyond the queue they are refused at once', async () => {
    const bulkhead = new Bulkhead({ concurrency: 2, queue: 1, maxWaitMs: 60_000 });
    const order: string[] = [];
    const first = gate();
    const second = gate();
    const running = [bulkhead.run('org-a', first.task), bulkhead.run('org-a', second.task)];
    const queued = bulkhead.run('org-a', () => order.push('queued'));
    await expect(bulkhead.run('org-a', () => 'never')).rejects.toEqual(new BulkheadRefused('queue full'));
    // Another lane is not affected.
    await expect(bulkhead.run('org-b', () => 'b')).resolves.toBe('b');

    expect(bulkhead.runningIn('org-a')).toBe(2);
    expect(order).toEqual([]);
    first.open();
    await queued;
    expect(order).toEqual(['queued']);
    second.open();
    await Promise.all(running);
    expect(bulkhead.runningIn('org-a')).toBe(0);
  });

  test('when a queued task waits longer than the bound, then it is refused and leaves the queue', async () => {
    const bulkhead = new Bulkhead({ concurrency: 1, queue: 5, maxWaitMs: 20 });
    const busy = gate();
    const running = bulkhead.run('org', busy.task);
    await expect(bulkhead.run('org', () => 'late')).rejects.toEqual(new BulkheadRefused('waited too long'));
    busy.open();
    await running;
    await expect(bulkhead.run('org', () => 'now')).resolves.toBe('now');
  });

  test('when a task fails, then its place is given back', async () => {
    const bulkhead = new Bulkhead({ concurrency: 1, queue: 0, maxWaitMs: 10 });
    await expect(bulkhead.run('org', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(bulkhead.run('org', () => 'ok')).resolves.toBe('ok');
  });

  test('when every place is taken by one lane with more waiting, then a freed place goes to another lane that waits, not to the busy one', async () => {
    const bulkhead = new Bulkhead({ concurrency: 2, total: 2, queue: 10, maxWaitMs: 60_000 });
    const busy = [gate(), gate()];
    const running = busy.map(({ task }) => bulkhead.run('attacker', task));
    const order: string[] = [];
    const attackerQueued = [
      bulkhead.run('attacker', () => order.push('attacker')),
      bulkhead.run('attacker', () => order.push('attacker')),
    ];
    const victim = bulkhead.run('victim', () => order.push('victim'));
    busy[0].open();
    await victim;
    expect(order[0]).toBe('victim');
    busy[1].open();
    await Promise.all([...running, ...attackerQueued]);
    expect(order).toEqual(['victim', 'attacker', 'attacker']);
  });

  test('when 55 tasks arrive at once and at their pace would all start within the wait, then all run, far past any count of 32', async () => {
    // At 5 ms a task, the last of 55 starts after about 70 ms: the wait's bound is far above that, so a
    // loaded machine (a 5 ms timer firing after 100 ms) does not turn the test into one about refusals.
    const bulkhead = new Bulkhead({ concurrency: 4, queue: 2_000, maxWaitMs: 10_000 });
    // One finished task tells the bulkhead how long a task holds a place.
    await bulkhead.run('org', () => new Promise((resolve) => setTimeout(resolve, 5)));
    const results = await Promise.allSettled(
      Array.from({ length: 55 }, () => bulkhead.run('org', () => new Promise((resolve) => setTimeout(resolve, 5)))),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
  });

  test("when tasks would wait longer than the bound at the lane's pace, then they are refused at once, not after the wait", async () => {
    const bulkhead = new Bulkhead({ concurrency: 1, queue: 2_000, maxWaitMs: 2_000 });
    await bulkhead.run('org', () => new Promise((resolve) => setTimeout(resolve, 100)));
    const busy = gate();
    const running = bulkhead.run('org', busy.task);
    // A task held its place at least 100 ms (a timer never fires early), so the 20th waiting would start
    // after 2 s or later; the first three start within it unless that timer fired after 666 ms.
    const queued = [1, 2, 3].map(() => bulkhead.run('org', () => 'ran'));
    const refused: unknown[] = [];
    const flood = Array.from({ length: 30 }, () =>
      bulkhead.run('org', () => 'late').catch((error: unknown) => void refused.push(error)),
    );
    // A refusal at once settles within this turn of the event loop, long before any task could finish.
    await new Promise((resolve) => setImmediate(resolve));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused).toEqual(refused.map(() => new BulkheadRefused('would wait too long')));
    busy.open();
    await expect(Promise.all([running, ...queued])).resolves.toEqual([undefined, 'ran', 'ran', 'ran']);
    await Promise.all(flood);
  });

  test("when a lane's queue reaches its memory cap, then further tasks are refused at once", async () => {
    const bulkhead = new Bulkhead({ concurrency: 1, queue: 2, maxWaitMs: 60_000 });
    const busy = gate();
    const running = bulkhead.run('org', busy.task);
    const queued = [bulkhead.run('org', () => 1), bulkhead.run('org', () => 2)];
    await expect(bulkhead.run('org', () => 3)).rejects.toEqual(new BulkheadRefused('queue full'));
    busy.open();
    await Promise.all([running, ...queued]);
  });
});
