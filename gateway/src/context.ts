import type { Logger, RequestOutcome } from '@fi/shared';
import type { RateLimitDecision } from './rateLimit/decision';

export interface GatewayContext {
  requestId: string;
  logger: Logger;
  apiKeys: string[];
  /** The client's Idempotency-Key header, passed on to the subgraph that creates the item. */
  idempotencyKey: string | undefined;
  /** Where the request's keys stand, for the RateLimit headers; absent when it used no key. */
  rateLimit: RateLimitDecision | undefined;
  outcome: RequestOutcome;
}
