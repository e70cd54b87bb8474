export interface RetrySchedule {
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

/**
 * Delay after failed attempt number `attempt` (1 = the first): exponential from `baseMs`, capped at
 * `maxDelayMs`, with "equal jitter" (half fixed, half random) so that receivers coming back from an
 * outage are not hit by every retry at the same instant.
 */
export function retryDelayMs(attempt: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const exponential = Math.min(schedule.maxDelayMs, schedule.baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** Null when the delivery must be given up: its first attempt is `windowMs` old. */
export function nextAttemptAt(
  attempt: number,
  firstAttemptAt: Date,
  now: Date,
  schedule: RetrySchedule,
  random?: () => number,
): Date | null {
  if (now.getTime() - firstAttemptAt.getTime() >= schedule.windowMs) return null;
  return new Date(now.getTime() + retryDelayMs(attempt, schedule, random));
}
