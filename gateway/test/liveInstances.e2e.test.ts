import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createLogger } from '@fi/shared';
import { LiveInstances } from '../src/rateLimit/liveInstances';
import { WindowCounter } from '../src/rateLimit/windowCounter';

const logger = createLogger('test', 'silent');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A client like the gateway's: no offline queue, so commands fail at once while it is disconnected. */
const client = () =>
  new Redis(REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1_000,
    lazyConnect: true,
  });

async function until<T>(attempt: () => Promise<T>, done: (value: T) => boolean, deadlineMs = 10_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('gateway instances counting themselves in Redis', () => {
  const clients: Redis[] = [];
  const connected = async () => {
    const redis = client();
    redis.on('error', () => undefined);
    clients.push(redis);
    await redis.connect();
    return redis;
  };
  afterAll(() => clients.forEach((redis) => redis.disconnect()));

  test('when three instances beat, then each learns 3; when one leaves, the others learn 2 at their next beat', async () => {
    const redis = await connected();
    const key = `unit:instances:${randomUUID()}`;
    const [a, b, c] = [1, 2, 3].map(() => new LiveInstances({ redis, key, assumed: 12 }));
    expect(a.count).toBe(12);
    await a.beat();
    await b.beat();
    expect(await c.beat()).toBe(3);
    expect(await a.beat()).toBe(3);
    expect(b.count).toBe(2);
    await c.stop();
    expect(await b.beat()).toBe(2);
    expect(await a.beat()).toBe(2);
  });

  test('when an instance stops beating without leaving (a crash), then it no longer counts once its time to live has passed', async () => {
    const redis = await connected();
    const key = `unit:instances:${randomUUID()}`;
    const crashed = new LiveInstances({ redis, key, assumed: 1, ttlMs: 300 });
    const survivor = new LiveInstances({ redis, key, assumed: 1, ttlMs: 300 });
    await crashed.beat();
    expect(await survivor.beat()).toBe(2);
    expect(
      await until(
        () => survivor.beat(),
        (count) => count === 1,
      ),
    ).toBe(1);
    expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  test('when Redis goes away, then the last known count stands and the insurance limiter allows each instance that share', async () => {
    const shared = await connected();
    const key = `unit:instances:${randomUUID()}`;
    await new LiveInstances({ redis: shared, key, assumed: 1 }).beat();
    await new LiveInstances({ redis: shared, key, assumed: 1 }).beat();
    const redis = await connected();
    const own = new LiveInstances({ redis, key, assumed: 1 });
    expect(await own.beat()).toBe(3);

    redis.disconnect();
    expect(await own.beat()).toBe(3);
    const counter = new WindowCounter({
      redis,
      keyPrefix: `unit:${randomUUID()}`,
      windowSeconds: 60,
      instances: () => own.count,
      logger,
    });
    const results = [];
    for (let i = 0; i < 6; i += 1) results.push((await counter.count('key', 'k', 12)).allowed);
    expect(counter.mode).toBe('insurance');
    expect(results).toEqual([true, true, true, true, false, false]);
  });

  test('when the gateway is started with a heartbeat, then it beats until stopped and leaves the set', async () => {
    const redis = await connected();
    const key = `unit:instances:${randomUUID()}`;
    const other = new LiveInstances({ redis, key, assumed: 1 });
    const running = new LiveInstances({ redis, key, assumed: 1, heartbeatMs: 50 });
    await running.start();
    expect(await other.beat()).toBe(2);
    // Only the heartbeat can bring the running instance's own count to 2.
    expect(
      await until(
        async () => running.count,
        (count) => count === 2,
      ),
    ).toBe(2);
    await running.stop();
    expect(await other.beat()).toBe(1);
  });
});
