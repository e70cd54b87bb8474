import { unauthenticated, type Authenticator, type Caller } from '@fi/shared';
import { extractApiKeys, type KeyedRootFields } from './extractApiKeys';
import type { OperationRequest } from './readOperation';

export interface AuthenticatedRequest {
  /** Verified keys of the operation, forwarded to subgraphs for entity fetches. */
  apiKeys: string[];
  callers: Caller[];
}

const NOBODY: AuthenticatedRequest = { apiKeys: [], callers: [] };

/**
 * Checks every API key of the operation before any subgraph is called. A missing key in any form
 * (omitted, null, empty, unset variable) or an invalid key refuses the whole operation with
 * UNAUTHENTICATED "Invalid API key". A request the gateway cannot read passes through untouched, so
 * GraphQL validation answers it with BAD_REQUEST.
 */
export async function authenticateRequest(
  request: OperationRequest | null,
  keyedFields: KeyedRootFields,
  authenticator: Authenticator,
): Promise<AuthenticatedRequest> {
  if (!request) return NOBODY;
  const extracted = extractApiKeys(request, keyedFields);
  if (extracted.missing) throw unauthenticated();
  const callers = await Promise.all(extracted.keys.map((key) => authenticator.require(key)));
  return { apiKeys: extracted.keys, callers };
}

/**
 * The same answer from the verifier's cache alone, for a client address the invalid-key guard has
 * blocked: null when any key (or a missing one) would need the key store, so such a request costs no
 * store read.
 */
export function authenticateFromCache(
  request: OperationRequest | null,
  keyedFields: KeyedRootFields,
  authenticator: Authenticator,
): AuthenticatedRequest | null {
  if (!request) return null;
  const extracted = extractApiKeys(request, keyedFields);
  if (extracted.missing || extracted.keys.length === 0) return null;
  const callers = authenticator.knownCallers(extracted.keys);
  return callers ? { apiKeys: extracted.keys, callers } : null;
}
