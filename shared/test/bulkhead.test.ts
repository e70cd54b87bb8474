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
});
