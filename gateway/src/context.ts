import type { Logger, Principal, RequestOutcome } from '@fi/shared';
import type { RateLimitDecision } from './rateLimit/decision';

export interface GatewayContext {
  requestId: string;
  logger: Logger;
  /** The operation's verified keys; they never leave the gateway. */
  apiKeys: string[];
  /** Who the keys stand for, signed for the subgraphs on each call. */
  principals: Principal[];
  /** Each raw key and the id subgraphs receive in its place. */
  keyRefs: Map<string, string>;
  /** The client's Idempotency-Key header, passed on to the subgraph that creates the item. */
  idempotencyKey: string | undefined;
  /** Where the request's keys stand, for the RateLimit headers; absent when it used no key. */
  rateLimit: RateLimitDecision | undefined;
  outcome: RequestOutcome;
}
