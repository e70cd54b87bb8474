import { unauthenticated, type Caller, type Principal } from '@fi/shared';
import { extractApiKeys, type KeyedRootFields } from './extractApiKeys';
import type { IdentityClient } from './identityClient';
import type { OperationRequest } from './readOperation';

export interface AuthenticatedRequest {
  /** Verified keys of the operation (only ever used inside the gateway). */
  apiKeys: string[];
  /** Who the keys stand for, signed into the identity sent to subgraphs. */
  principals: Principal[];
  /** Each raw key and the id that replaces it in the operation sent to subgraphs. */
  keyRefs: Map<string, string>;
  callers: Caller[];
}

const NOBODY: AuthenticatedRequest = { apiKeys: [], principals: [], keyRefs: new Map(), callers: [] };

/**
 * Checks every API key of the operation with the identity service before any subgraph is called. A
 * missing key in any form (omitted, null, empty, unset variable) or an invalid key refuses the whole
 * operation with UNAUTHENTICATED "Invalid API key". A request the gateway cannot read passes through
 * untouched, so GraphQL validation answers it with BAD_REQUEST.
 */
export async function authenticateRequest(
  request: OperationRequest | null,
  keyedFields: KeyedRootFields,
  identity: IdentityClient,
): Promise<AuthenticatedRequest> {
  if (!request) return NOBODY;
  const extracted = extractApiKeys(request, keyedFields);
  if (extracted.missing) throw unauthenticated();
  const principals = await Promise.all(
    extracted.keys.map(async (key) => {
      const principal = await identity.verifyKey(key);
      if (!principal) throw unauthenticated();
      return principal;
    }),
  );
  return authenticated(extracted.keys, principals);
}

/**
 * The same answer from the identity client's cache alone, for a client address the invalid-key guard
 * has blocked: null when any key (or a missing one) would need the identity service, so such a request
 * costs it nothing.
 */
export function authenticateFromCache(
  request: OperationRequest | null,
  keyedFields: KeyedRootFields,
  identity: IdentityClient,
): AuthenticatedRequest | null {
  if (!request) return null;
  const extracted = extractApiKeys(request, keyedFields);
  if (extracted.missing || extracted.keys.length === 0) return null;
  const principals: Principal[] = [];
  for (const key of extracted.keys) {
    const principal = identity.peek(key);
    if (!principal) return null;
    principals.push(principal);
  }
  return authenticated(extracted.keys, principals);
}

function authenticated(keys: string[], principals: Principal[]): AuthenticatedRequest {
  return {
    apiKeys: keys,
    principals,
    keyRefs: new Map(keys.map((key, index) => [key, principals[index].ref])),
    callers: principals.map(({ ref, orgId, tier, readOnly, rateLimitPerMinute }) => ({
      keyId: ref,
      orgId,
      tier,
      readOnly,
      rateLimitPerMinute,
    })),
  };
}
