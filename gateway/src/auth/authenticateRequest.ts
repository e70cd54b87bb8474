import { isPlainObject, unauthenticated, type Authenticator, type Caller } from '@fi/shared';
import type { DocumentCache } from './documentCache';
import { extractApiKeys, type KeyedRootFields } from './extractApiKeys';

export interface AuthenticatedRequest {
  /** Verified keys of the operation, forwarded to subgraphs for entity fetches. */
  apiKeys: string[];
  callers: Caller[];
}

const NOBODY: AuthenticatedRequest = { apiKeys: [], callers: [] };

/**
 * Checks every API key of the operation before any subgraph is called. A missing key in any form
 * (omitted, null, empty, unset variable) or an invalid key refuses the whole operation with
 * UNAUTHENTICATED "Invalid API key". Requests the gateway cannot read (no query, a syntax error,
 * an unknown operation) pass through untouched, so GraphQL validation answers them with BAD_REQUEST.
 */
export async function authenticateRequest(
  body: unknown,
  documents: DocumentCache,
  keyedFields: KeyedRootFields,
  authenticator: Authenticator,
): Promise<AuthenticatedRequest> {
  if (!isPlainObject(body) || typeof body.query !== 'string') return NOBODY;
  const document = documents.get(body.query);
  if (!document) return NOBODY;
  const variables = isPlainObject(body.variables) ? body.variables : {};
  const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
  const extracted = extractApiKeys(document, operationName, variables, keyedFields);
  if (!extracted) return NOBODY;
  if (extracted.missing) throw unauthenticated();
  const callers = await Promise.all(extracted.keys.map((key) => authenticator.require(key)));
  return { apiKeys: extracted.keys, callers };
}
