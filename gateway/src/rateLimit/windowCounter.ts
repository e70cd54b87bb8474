import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@fi/shared';

/** Where counts live right now: Redis (shared), the insurance limiter (Redis failing), or this process only. */
export type CounterMode = 'redis' | 'insurance' | 'memory';

export interface CountResult {
  allowed: boolean;
  consumed: number;
  msBeforeNext: number;
}

/** A limit nobody reaches: unlimited keys are still counted, so they take the same path as the others. */
export const UNLIMITED_POINTS = Number.MAX_SAFE_INTEGER;

/** After Redis fails, it is tried again this long later; meanwhile requests do not wait on it. */
const REDIS_RETRY_MS = 1_000;

export interface WindowCounterOptions {
  redis: Redis | null;
  keyPrefix: string;
  windowSeconds: number;
  /** Gateway instances sharing Redis, as last known: while it is down, each allows 1/instances of every limit. */
  instances: () => number;
  logger: Logger;
  onModeChange?: (mode: CounterMode) => void;
}

/**
 * Counts events per id in fixed windows. With Redis the count is atomic and shared by every gateway
 * instance; when Redis errors or is slower than its timeout, the count moves to an in-process
 * insurance limiter (never unlimited), and goes back to Redis by itself once Redis answers again.
 */
export class WindowCounter {
  private readonly redisLimiters = new Map<string, RateLimiterRedis>();
  private readonly localLimiters = new Map<string, RateLimiterMemory>();
  private redisRetryAt = 0;
  private currentMode: CounterMode;
  /** While in insurance mode: asks Redis every REDIS_RETRY_MS whether it is back, requests or not. */
  private probe: NodeJS.Timeout | null = null;

  constructor(private readonly options: WindowCounterOptions) {
    this.currentMode = options.redis ? 'redis' : 'memory';
  }

  get mode(): CounterMode {
    return this.currentMode;
  }

  /**
   * Counts `events` (one by default) for `id` in `namespace` against `limit` events per window. With
   * `refundRefused`, refused events are taken back, so a request refused for asking too much leaves
   * the rest of the budget to smaller ones.
   */
  async count(namespace: string, id: string, limit: number, events = 1, refundRefused = false): Promise<CountResult> {
    const shared = this.redisLimiter(namespace, limit, !refundRefused);
    if (shared && Date.now() >= this.redisRetryAt) {
      try {
        return this.onRedisAnswer(toResult(await shared.consume(id, events), true));
      } catch (error) {
        if (error instanceof RateLimiterRes)
          return this.onRedisAnswer(await refused(shared, id, error, refundRefused ? events : 0));
        this.onRedisFailure(error);
      }
    }
    const local = this.localLimiter(namespace, limit);
    try {
      return toResult(await local.consume(id, events), true);
    } catch (error) {
      if (error instanceof RateLimiterRes) return refused(local, id, error, refundRefused ? events : 0);
      throw error;
    }
  }

  /** `blockWhenOver`: remember in process that an id went over, until its window ends (not for refunded counts). */
  private redisLimiter(namespace: string, limit: number, blockWhenOver: boolean): RateLimiterRedis | null {
    const { redis, keyPrefix, windowSeconds } = this.options;
    if (!redis) return null;
    const cacheKey = `${namespace}\u0000${limit}\u0000${blockWhenOver}`;
    let limiter = this.redisLimiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${keyPrefix}:${namespace}`,
        points: limit,
        duration: windowSeconds,
        // Fails at once while the connection is down, so the insurance limiter answers without delay.
        rejectIfRedisNotReady: true,
        // A key over its limit stays refused for the rest of its window without asking Redis again.
        ...(blockWhenOver && limit < UNLIMITED_POINTS ? { inMemoryBlockOnConsumed: limit + 1 } : {}),
      });
      this.redisLimiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  /**
   * The in-process limiter: the whole limit without Redis, this instance's share of it beside Redis.
   * Keyed by that share, which follows the live instance count; counts are per id, so limits with the
   * same share may use one limiter.
   */
  private localLimiter(namespace: string, limit: number): RateLimiterMemory {
    const { redis, keyPrefix, windowSeconds, instances } = this.options;
    const points = redis ? Math.max(1, Math.ceil(limit / Math.max(1, instances()))) : limit;
    const cacheKey = `${namespace}\u0000${points}`;
    let limiter = this.localLimiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: `${keyPrefix}:${namespace}`, points, duration: windowSeconds });
      this.localLimiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  private onRedisAnswer(result: CountResult): CountResult {
    if (this.currentMode !== 'redis') {
      this.options.logger.warn('rate limits are counted in Redis again');
      this.setMode('redis');
    }
    return result;
  }

  private onRedisFailure(error: unknown): void {
    this.redisRetryAt = Date.now() + REDIS_RETRY_MS;
    if (this.currentMode !== 'insurance') {
      this.options.logger.warn(
        { err: error },
        'Redis is unavailable: rate limits are counted in this process (insurance limiter) until it returns',
      );
      this.setMode('insurance');
    }
  }

  private setMode(mode: CounterMode): void {
    this.currentMode = mode;
    this.options.onModeChange?.(mode);
    if (mode === 'insurance') this.startProbe();
    else this.stopProbe();
  }

  /**
   * Without a probe, only the next keyed request would find Redis back: /health and the insurance gauge
   * would report the insurance limiter for as long as no such request came.
   */
  private startProbe(): void {
    const { redis } = this.options;
    if (!redis || this.probe) return;
    this.probe = setInterval(() => {
      redis.ping().then(
        () => {
          this.redisRetryAt = 0;
          this.onRedisAnswer({ allowed: true, consumed: 0, msBeforeNext: 0 });
        },
        () => undefined,
      );
    }, REDIS_RETRY_MS);
    this.probe.unref();
  }

  private stopProbe(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  /** Stops the probe (on shutdown). */
  close(): void {
    this.stopProbe();
  }
}

async function refused(
  limiter: RateLimiterRedis | RateLimiterMemory,
  id: string,
  res: RateLimiterRes,
  refund: number,
): Promise<CountResult> {
  if (refund === 0) return toResult(res, false);
  // A failed refund only leaves the budget smaller until the window ends.
  await limiter.reward(id, refund).catch(() => undefined);
  return { allowed: false, consumed: res.consumedPoints - refund, msBeforeNext: res.msBeforeNext };
}

function toResult(res: RateLimiterRes, allowed: boolean): CountResult {
  return { allowed, consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext };
}
