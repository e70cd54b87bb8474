import Redis from 'ioredis';
import { createLogger } from '@fi/shared';
import { freePort } from '@fi/cli/embedded';
import { InvalidKeyGuard } from '../src/rateLimit/invalidKeyGuard';
import { WindowCounter, type CounterMode } from '../src/rateLimit/windowCounter';

const logger = createLogger('test', 'silent');

describe('counting requests in windows', () => {
  test('when counted in process, then exactly the limit passes under concurrency, per id', async () => {
    const counter = new WindowCounter({
      redis: null,
      keyPrefix: 'unit',
      windowSeconds: 60,
      instances: () => 1,
      logger,
    });
    const results = await Promise.all(Array.from({ length: 25 }, () => counter.count('key', 'a', 10)));
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    expect((await counter.count('key', 'b', 10)).allowed).toBe(true);
    expect(counter.mode).toBe('memory');
  });

  test('when Redis cannot be reached, then the insurance limiter counts each instance its share, never unlimited', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
    });
    redis.on('error', () => undefined);
    const modes: CounterMode[] = [];
    const counter = new WindowCounter({
      redis,
      keyPrefix: 'unit',
      windowSeconds: 60,
      instances: () => 4,
      logger,
      onModeChange: (mode) => modes.push(mode),
    });
    try {
      const results = [];
      for (let i = 0; i < 5; i += 1) results.push(await counter.count('key', 'k', 12));
      expect(results.map((result) => result.allowed)).toEqual([true, true, true, false, false]);
      expect(modes).toEqual(['insurance']);
    } finally {
      redis.disconnect();
    }
  });

  test('when an address sends too many invalid keys, then it is blocked for the rest of the window', async () => {
    const guard = new InvalidKeyGuard(
      new WindowCounter({ redis: null, keyPrefix: 'unit', windowSeconds: 60, instances: () => 1, logger }),
      2,
    );
    expect(await guard.recordFailure('10.0.0.1')).toBeNull();
    expect(await guard.recordFailure('10.0.0.1')).toBeNull();
    const wait = await guard.recordFailure('10.0.0.1');
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(guard.retryAfter('10.0.0.1')).toBeGreaterThanOrEqual(59);
    expect(guard.retryAfter('10.0.0.2')).toBeNull();
    expect(guard.retryAfter('10.0.0.1', Date.now() + 61_000)).toBeNull();
  });
});
