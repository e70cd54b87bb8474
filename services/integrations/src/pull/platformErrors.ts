/** The platform asked to wait (HTTP 429): nothing is fetched from it before `retryAt`. */
export class RateLimitedError extends Error {
  constructor(
    readonly platform: string,
    readonly retryAt: Date,
  ) {
    super(`${platform} rate limit: retrying at ${retryAt.toISOString()}`);
    this.name = 'RateLimitedError';
  }
}

/** The platform refused or failed a call; the message names the status, never the credentials. */
export class PlatformError extends Error {
  constructor(
    readonly platform: string,
    readonly status: number,
    reason: string,
  ) {
    super(`${platform} answered ${status}: ${reason}`);
    this.name = 'PlatformError';
  }
}

/** How long Retry-After asks to wait: seconds, or an HTTP date; `fallbackMs` when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date, fallbackMs: number): number {
  if (header === null) return fallbackMs;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallbackMs : Math.max(0, date - now.getTime());
}

/**
 * A GET or POST to a platform's API with a time limit, 429 turned into RateLimitedError and other
 * failures into PlatformError; the JSON body of a success.
 */
export async function platformCall<T>(
  platform: string,
  url: string,
  init: RequestInit,
  options: { timeoutMs: number; rateLimitFallbackMs: number },
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    throw new PlatformError(
      platform,
      0,
      (error as Error).name === 'TimeoutError' ? 'no answer in time' : 'unreachable',
    );
  }
  if (response.status === 429) {
    await response.body?.cancel();
    // Counted from the answer, not from the request: a slow answer must not shorten the wait.
    const answeredAt = new Date();
    const waitMs = retryAfterMs(response.headers.get('retry-after'), answeredAt, options.rateLimitFallbackMs);
    throw new RateLimitedError(platform, new Date(answeredAt.getTime() + waitMs));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PlatformError(platform, response.status, response.statusText || 'refused');
  }
  try {
    return (await response.json()) as T;
  } catch {
    throw new PlatformError(platform, response.status, 'the answer is not JSON');
  }
}
