import {
  IDEMPOTENCY_KEY_HEADER,
  IDENTITY_HEADER,
  REQUEST_ID_HEADER,
  signIdentity,
  type SigningKeyring,
} from '@fi/shared';
import type { GatewayContext } from '../context';
import type { SubgraphCaller } from '../subgraphDataSource';
import { withKeyReferences } from './keyReferences';

/**
 * The public API's callers: the operation's verified keys as a freshly signed identity (entity fetches
 * carry no `apiKey` argument), with each raw key in the operation replaced by its id; the request id, so one
 * request can be followed across services; and the client's Idempotency-Key, so a retried addFeedbackItem
 * creates nothing new. `identityTtlMs`: long enough for one subgraph call, short enough to be useless if copied.
 */
export function apiKeyCaller(signingKeys: SigningKeyring, identityTtlMs: number): SubgraphCaller<GatewayContext> {
  // One signature per request, not per subgraph call (a request's principals do not change), renewed for
  // a late call once half its lifetime is gone.
  const signed = new WeakMap<GatewayContext, { token: string; renewAt: number }>();
  const identityOf = (context: GatewayContext) => {
    const now = Date.now();
    let identity = signed.get(context);
    if (!identity || identity.renewAt <= now) {
      identity = {
        token: signIdentity(signingKeys, context.principals, identityTtlMs, now),
        renewAt: now + identityTtlMs / 2,
      };
      signed.set(context, identity);
    }
    return identity.token;
  };
  return {
    operation: (context, operation) => withKeyReferences(operation, context.keyRefs),
    headers(context) {
      const headers: Record<string, string> = {
        [REQUEST_ID_HEADER]: context.requestId,
        [IDENTITY_HEADER]: identityOf(context),
      };
      if (context.idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = context.idempotencyKey;
      return headers;
    },
  };
}
