import type { Caller, Logger } from '@fi/shared';

export interface GatewayContext {
  requestId: string;
  logger: Logger;
  apiKeys: string[];
  callers: Caller[];
  /** The client's Idempotency-Key header, passed on to the subgraph that creates the item. */
  idempotencyKey: string | undefined;
}
