import Redis from 'ioredis';
import type { Logger } from '@fi/shared';

const FIRST_CONNECT_WAIT_MS = 2_000;

/**
 * The Redis connection of the rate limiter. No offline queue: while Redis is away a command fails at
 * once (and the insurance limiter counts) instead of piling up; every command is bounded by
 * `timeoutMs`, so a slow Redis cannot slow requests down; reconnection never gives up.
 */
export async function connectRedis(url: string, timeoutMs: number, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // One line per distinct failure, not one per reconnection attempt.
    if (error.message !== lastError) logger.warn({ err: error }, 'Redis connection error');
    lastError = error.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  // The gateway starts either way; without Redis it begins on the insurance limiter.
  const connected = await new Promise<boolean>((resolve) => {
    if (redis.status === 'ready') return resolve(true);
    const timer = setTimeout(() => resolve(false), FIRST_CONNECT_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!connected) logger.warn('Redis is not reachable yet: starting with the insurance limiter');
  return redis;
}
