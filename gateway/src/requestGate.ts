import { GraphQLError } from 'graphql';
import {
  appError,
  ErrorCode,
  IDEMPOTENCY_KEY_HEADER,
  operationLabel,
  SERVICE_UNAVAILABLE_MESSAGE,
  withHttpStatus,
  type RequestInfo,
} from '@fi/shared';
import { authenticateRequest } from './auth/authenticateRequest';
import { clientAddress } from './auth/clientAddress';
import { IdentityUnavailableError, type IdentityClient } from './auth/identityClient';
import type { DocumentCache } from './auth/documentCache';
import type { KeyedRootFields } from './auth/extractApiKeys';
import { readOperation } from './auth/readOperation';
import type { GatewayContext } from './context';
import type { GatewayMetrics } from './metrics/gatewayMetrics';
import { mostConstrained, rateLimitExtension, rateLimitHeaders, type RateLimitDecision } from './rateLimit/decision';
import type { InvalidKeyGuard } from './rateLimit/invalidKeyGuard';
import type { KeyRateLimits } from './rateLimit/keyRateLimits';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from './subgraphErrors';

export interface RequestGateDeps {
  documents: DocumentCache;
  keyedFields: () => KeyedRootFields;
  identity: IdentityClient;
  keyLimits: KeyRateLimits;
  invalidKeyGuard: InvalidKeyGuard;
  metrics: GatewayMetrics;
  trustProxy: boolean;
}

/**
 * Everything the gateway decides before planning a query, in order: are all keys valid (if not: is the
 * client address over its limit of invalid keys), is every key within its rate limit. A refusal ends the request
 * here: no subgraph is called and nothing is written.
 */
export function createRequestGate(deps: RequestGateDeps) {
  return async (info: RequestInfo): Promise<GatewayContext> => {
    const request = readOperation(info.body, deps.documents);
    if (request) info.outcome.operation = operationLabel(request.operation);
    try {
      const address = clientAddress(info.headers, info.remoteAddress, deps.trustProxy);
      let authenticated;
      try {
        authenticated = await authenticateRequest(request, deps.keyedFields(), deps.identity);
      } catch (error) {
        if (!isCode(error, ErrorCode.UNAUTHENTICATED)) throw error;
        deps.metrics.authFailures.inc();
        // Only requests without a valid key are refused: one misconfigured client behind a shared
        // address (an office NAT) must not lock out the others, whose keys are valid.
        const blockedFor = deps.invalidKeyGuard.retryAfter(address);
        if (blockedFor !== null) throw tooManyInvalidKeys(blockedFor);
        const retryAfter = await deps.invalidKeyGuard.recordFailure(address);
        throw retryAfter === null ? error : tooManyInvalidKeys(retryAfter);
      }

      const decisions = await deps.keyLimits.consume(authenticated.callers);
      const refused = decisions.filter((decision) => !decision.allowed);
      if (refused.length > 0) throw overLimit(refused);

      const idempotencyKey = info.headers[IDEMPOTENCY_KEY_HEADER];
      return {
        requestId: info.requestId,
        logger: info.logger,
        apiKeys: authenticated.apiKeys,
        principals: authenticated.principals,
        keyRefs: authenticated.keyRefs,
        idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
        rateLimit: mostConstrained(decisions),
        outcome: info.outcome,
      };
    } catch (caught) {
      // The identity service unreachable or too slow: the client may retry, it did nothing wrong.
      const error = caught instanceof IdentityUnavailableError ? identityUnavailable(info.requestId) : caught;
      if (!(error instanceof GraphQLError)) {
        info.outcome.code = ErrorCode.INTERNAL_SERVER_ERROR;
        info.logger.error({ err: error }, 'internal error');
        throw error;
      }
      const code = String(error.extensions.code);
      info.outcome.code = code;
      if (code === ErrorCode.RATE_LIMITED) deps.metrics.rateLimited.inc({ tier: String(error.extensions.tier ?? 'invalid_key') });
      // A refusal is an ordinary GraphQL error result, not a server failure: 200 unless it says otherwise.
      throw error.extensions.http ? error : withHttpStatus(error, 200);
    }
  };
}

const isCode = (error: unknown, code: ErrorCode) => error instanceof GraphQLError && error.extensions.code === code;

function identityUnavailable(requestId: string): GraphQLError {
  return withHttpStatus(
    appError(ErrorCode.SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_MESSAGE, { retryAfter: SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS, requestId }),
    503,
    { 'retry-after': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}

function tooManyInvalidKeys(retryAfter: number): GraphQLError {
  return withHttpStatus(
    appError(ErrorCode.RATE_LIMITED, `Too many requests with a missing or invalid API key from this address; retry in ${retryAfter} s`, {
      retryAfter,
    }),
    429,
    { 'retry-after': String(retryAfter) },
  );
}

function overLimit(refused: RateLimitDecision[]): GraphQLError {
  const decision = refused.reduce((longest, next) => (next.resetSeconds > longest.resetSeconds ? next : longest));
  const retryAfter = decision.resetSeconds;
  return withHttpStatus(
    appError(
      ErrorCode.RATE_LIMITED,
      `Rate limit exceeded: ${decision.limit} requests per ${decision.windowSeconds} s for this API key; retry in ${retryAfter} s`,
      { retryAfter, tier: decision.tier, rateLimit: rateLimitExtension(decision) },
    ),
    429,
    { 'retry-after': String(retryAfter), ...rateLimitHeaders(decision) },
  );
}
