import { BusyBackoff } from '../src/rateLimit/busyBackoff';

describe('the wait of callers a subgraph refused for their organization', () => {
  test('when a caller was told to retry in 1 s, then it waits until then, rounded up, and others do not', () => {
    let now = 1_000_000;
    const backoff = new BusyBackoff(() => now);
    backoff.record(['key-a'], 1);

    expect(backoff.retryAfter(['key-a'])).toBe(1);
    expect(backoff.retryAfter(['key-b'])).toBeNull();
    // A request of several keys waits for the one told to wait.
    expect(backoff.retryAfter(['key-b', 'key-a'])).toBe(1);
    now += 999;
    expect(backoff.retryAfter(['key-a'])).toBe(1);
    now += 1;
    expect(backoff.retryAfter(['key-a'])).toBeNull();
  });

  test('when a caller is refused again, then its wait starts again from then, the longest of its keys counts', () => {
    let now = 0;
    const backoff = new BusyBackoff(() => now);
    backoff.record(['key-a', 'member:m'], 2);
    now += 1_500;
    backoff.record(['key-a'], 1);
    expect(backoff.retryAfter(['key-a'])).toBe(1);
    now += 600;
    expect(backoff.retryAfter(['key-a'])).toBe(1);
    expect(backoff.retryAfter(['member:m'])).toBeNull();
  });

  test('when more callers wait than it remembers, then the oldest are forgotten first, the newest kept', () => {
    const backoff = new BusyBackoff(() => 0);
    for (let i = 0; i <= 10_000; i += 1) backoff.record([`key-${i}`], 1);
    expect(backoff.retryAfter(['key-0'])).toBeNull();
    expect(backoff.retryAfter(['key-1'])).toBe(1);
    expect(backoff.retryAfter(['key-10000'])).toBe(1);
  });
});
