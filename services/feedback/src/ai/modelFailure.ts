/**
 * Why a model did not answer. `connection`, `rate-limited` and `server` are retried (at most 3 tries
 * in all); the others are not: a timeout already waited AI_TIMEOUT_MS, a refused request (4xx) or an
 * unreadable reply will not change when asked again at once, and a spent budget lasts until next month.
 */
export type ModelFailureReason =
  'connection' | 'timeout' | 'rate-limited' | 'server' | 'rejected' | 'malformed' | 'budget';

export class ModelUnavailable extends Error {
  constructor(
    readonly reason: ModelFailureReason,
    message: string,
    /** When the server asked to be left alone until (Retry-After), in ms since the epoch. */
    readonly retryAt?: number,
  ) {
    super(message);
    this.name = 'ModelUnavailable';
  }
}

export const RETRIED: ReadonlySet<ModelFailureReason> = new Set(['connection', 'rate-limited', 'server']);
