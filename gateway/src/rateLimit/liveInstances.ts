import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';

/**
 * Registers one instance until `now + ttl` and answers how many registrations are still live. Times
 * come from Redis's own clock, so the instances' clocks need not agree. One key: Redis Cluster safe.
 */
const HEARTBEAT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('ZCARD', KEYS[1])
`;

export interface LiveInstancesOptions {
  redis: Redis;
  /** The sorted set of live instances (id -> expiry). */
  key: string;
  /** What to assume until Redis has answered once (GATEWAY_INSTANCES). */
  assumed: number;
  heartbeatMs?: number;
  /** An instance that has not beaten for this long (crashed, cut off) no longer counts. */
  ttlMs?: number;
  onChange?: (count: number) => void;
}

/**
 * How many gateway instances share Redis, learnt from Redis instead of configured: each instance beats
 * every few seconds, and the count is the number of beats that have not expired. The insurance limiter
 * divides every limit by it while Redis is down; then no beat arrives, so the last known count stands,
 * which is the count at the moment Redis went away.
 */
export class LiveInstances {
  readonly id = randomUUID();
  private known: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: LiveInstancesOptions) {
    this.known = options.assumed;
  }

  get count(): number {
    return this.known;
  }

  /** One heartbeat; the count it learnt, or the last known one when Redis did not answer. */
  async beat(): Promise<number> {
    const { redis, key, ttlMs = 15_000 } = this.options;
    try {
      const live = Number(await redis.eval(HEARTBEAT, 1, key, this.id, ttlMs));
      if (live >= 1 && live !== this.known) {
        this.known = live;
        this.options.onChange?.(live);
      }
    } catch {
      // Redis is away (the rate limiter logs that): keep the last known count.
    }
    return this.known;
  }

  /** Beats now and then every heartbeat until `stop`. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.options.heartbeatMs ?? 5_000);
    this.timer.unref();
  }

  /** Stops beating and leaves the set at once, so the others learn the smaller count at their next beat. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.options.redis.zrem(this.options.key, this.id).catch(() => undefined);
  }
}
