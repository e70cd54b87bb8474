import { GraphQLError } from 'graphql';
import {
  appError,
  badRequest,
  type Bulkhead,
  BulkheadRefused,
  type Caller,
  ErrorCode,
  IDEMPOTENCY_KEY_HEADER,
  operationLabel,
  SERVICE_UNAVAILABLE_MESSAGE,
  UNAVAILABLE_HTTP,
  unavailableError,
  withHttpStatus,
  type RequestInfo,
} from '@fi/shared';
import { authenticateFromCache, authenticateRequest, type AuthenticatedRequest } from './auth/authenticateRequest';
import { clientAddress } from './auth/clientAddress';
import { IdentityUnavailableError, type IdentityClient } from './auth/identityClient';
import type { DocumentCache } from './auth/documentCache';
import type { KeyedRootFields } from './auth/extractApiKeys';
import { readOperation, type OperationRequest } from './auth/readOperation';
import type { GatewayContext } from './context';
import type { GatewayMetrics } from './metrics/gatewayMetrics';
import { mostConstrained, rateLimitExtension, rateLimitHeaders, type RateLimitDecision } from './rateLimit/decision';
import { operationCost, type PricedSchema } from './cost/operationCost';
import { type BusyBackoff, callerIds, stillBusy } from './rateLimit/busyBackoff';
import type { InvalidKeyGuard } from './rateLimit/invalidKeyGuard';
import { costExtension, leastPointsLeft, type CostDecision, type PointsBudget } from './rateLimit/pointsBudget';
import type { KeyRateLimits } from './rateLimit/keyRateLimits';

export interface RequestGateDeps {
  documents: DocumentCache;
  keyedFields: () => KeyedRootFields;
  /** The API schema and cost directives the costs are computed on; null until the supergraph has loaded. */
  pricedSchema: () => PricedSchema | null;
  pointsBudget: PointsBudget;
  /** Keys a subgraph has just refused for their organization's share, until their Retry-After. */
  busyBackoff: BusyBackoff;
  /** Requests of one key in flight at once (KEY_CONCURRENCY), queued a short while beyond. */
  keyConcurrency: Bulkhead;
  identity: IdentityClient;
  keyLimits: KeyRateLimits;
  invalidKeyGuard: InvalidKeyGuard;
  metrics: GatewayMetrics;
  trustProxy: boolean;
}

/**
 * Everything the gateway decides before planning a query, in order: is the client address blocked for
 * invalid keys, are all keys valid (if not: is the address now over its limit), is a key still within the
 * wait a subgraph gave it for its organization's share (BusyBackoff), is every key within its
 * requests and its points per window (the request's cost, docs/limits.md), is there a place for it among
 * the key's requests in flight. A refusal ends the request here: no subgraph is called and nothing is
 * written.
 */
export function createRequestGate(deps: RequestGateDeps) {
  return async (info: RequestInfo): Promise<GatewayContext> => {
    const request = readOperation(info.body, deps.documents);
    if (request) info.outcome.operation = operationLabel(request.operation);
    try {
      const address = clientAddress(info.headers, info.remoteAddress, deps.trustProxy);
      const authenticated = await authenticate(deps, request, address);
      const busyFor = deps.busyBackoff.retryAfter(callerIds(authenticated.principals));
      if (busyFor !== null) throw stillBusy(busyFor);
      const decisions = await deps.keyLimits.consume(authenticated.callers);
      const refused = decisions.filter((decision) => !decision.allowed);
      if (refused.length > 0) throw overLimit(refused);
      const priced = deps.pricedSchema();
      const requested = request && priced ? operationCost(priced, request) : 0;
      const charged = await deps.pointsBudget.charge(authenticated.callers, requested);
      const overBudget = charged.filter((decision) => !decision.allowed);
      if (overBudget.length > 0) throw overPoints(overBudget);
      await holdPlaces(deps.keyConcurrency, authenticated.callers, info);

      const idempotencyKey = info.headers[IDEMPOTENCY_KEY_HEADER];
      return {
        requestId: info.requestId,
        logger: info.logger,
        apiKeys: authenticated.apiKeys,
        principals: authenticated.principals,
        keyRefs: authenticated.keyRefs,
        idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
        rateLimit: mostConstrained(decisions),
        cost: { requested, decision: leastPointsLeft(charged) },
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
      if (code === ErrorCode.RATE_LIMITED)
        deps.metrics.rateLimited.inc({ tier: String(error.extensions.tier ?? 'invalid_key') });
      // A refusal is an ordinary GraphQL error result, not a server failure: 200 unless it says otherwise.
      throw error.extensions.http ? error : withHttpStatus(error, 200);
    }
  };
}

/**
 * The request's callers. The invalid-key guard comes first: an address it has blocked is served only
 * with keys the identity client's cache vouches for, and costs the identity service nothing. Every request without a
 * valid key counts against its address, whether its keys are wrong, missing, or it has none at all
 * (introspection, a document that does not parse): only requests with a valid key are free of the guard.
 */
async function authenticate(
  deps: RequestGateDeps,
  request: OperationRequest | null,
  address: string,
): Promise<AuthenticatedRequest> {
  const blockedFor = deps.invalidKeyGuard.retryAfter(address);
  if (blockedFor !== null) {
    const known = authenticateFromCache(request, deps.keyedFields(), deps.identity);
    if (!known) throw tooManyInvalidKeys(blockedFor);
    return known;
  }
  let authenticated: AuthenticatedRequest;
  try {
    authenticated = await authenticateRequest(request, deps.keyedFields(), deps.identity);
  } catch (error) {
    if (!isCode(error, ErrorCode.UNAUTHENTICATED)) throw error;
    deps.metrics.authFailures.inc();
    // Only requests without a valid key are refused: one misconfigured client behind a shared
    // address (an office NAT) must not lock out the others, whose keys are valid.
    const retryAfter = await deps.invalidKeyGuard.recordFailure(address);
    throw retryAfter === null ? error : tooManyInvalidKeys(retryAfter);
  }
  if (authenticated.callers.length === 0) {
    const retryAfter = await deps.invalidKeyGuard.recordFailure(address);
    if (retryAfter !== null) throw tooManyInvalidKeys(retryAfter);
  }
  return authenticated;
}

/**
 * A place in each key's lane for the whole request, given back when its response has been sent. A
 * client that opens more requests at once than KEY_CONCURRENCY waits a little, then gets 429: its own
 * burst cannot take the gateway's and the subgraphs' capacity from other keys.
 */
async function holdPlaces(bulkhead: Bulkhead, callers: Caller[], info: RequestInfo): Promise<void> {
  // In one order for every request, so two requests sharing two keys never wait on each other.
  const distinct = [...new Map(callers.map((caller) => [caller.keyId, caller])).values()].sort((a, b) =>
    a.keyId.localeCompare(b.keyId),
  );
  for (const caller of distinct) {
    try {
      info.onDone(await bulkhead.acquire(caller.keyId));
    } catch (error) {
      if (!(error instanceof BulkheadRefused)) throw error;
      throw withHttpStatus(
        appError(
          ErrorCode.RATE_LIMITED,
          `Too many concurrent requests for this API key; retry in ${KEY_BUSY_RETRY_AFTER_SECONDS} s`,
          {
            retryAfter: KEY_BUSY_RETRY_AFTER_SECONDS,
            tier: caller.tier,
          },
        ),
        429,
        { 'retry-after': String(KEY_BUSY_RETRY_AFTER_SECONDS) },
      );
    }
  }
}

/** Places in a key's lane free up as its own requests finish. */
const KEY_BUSY_RETRY_AFTER_SECONDS = 1;

const isCode = (error: unknown, code: ErrorCode) => error instanceof GraphQLError && error.extensions.code === code;

function identityUnavailable(requestId: string): GraphQLError {
  return withHttpStatus(
    unavailableError(SERVICE_UNAVAILABLE_MESSAGE, { requestId }),
    UNAVAILABLE_HTTP.status,
    UNAVAILABLE_HTTP.headers,
  );
}

function tooManyInvalidKeys(retryAfter: number): GraphQLError {
  return withHttpStatus(
    appError(
      ErrorCode.RATE_LIMITED,
      `Too many requests with a missing or invalid API key from this address; retry in ${retryAfter} s`,
      {
        retryAfter,
      },
    ),
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

/**
 * The request costs more points than a key (or on the admin API a member, `whose`) has left in this window
 * (429, retry when it ends), or more than its whole budget (400: it could never pass; the client must ask
 * for less).
 */
export function overPoints(refused: CostDecision[], whose = 'this API key'): GraphQLError {
  const decision = leastPointsLeft(refused) ?? refused[0];
  const { requested, limit, windowSeconds: window, resetSeconds: retryAfter } = decision;
  const extensions = { tier: decision.tier, cost: costExtension(requested, decision) };
  if (limit !== null && requested > limit) {
    return withHttpStatus(
      badRequest(
        `This request costs ${requested} points, more than ${whose}'s budget of ${limit} points per ${window} s; ask for less (a smaller take, fewer aliases, fewer ids)`,
        { ...extensions, limit: 'points', max: limit },
      ),
      400,
    );
  }
  return withHttpStatus(
    appError(
      ErrorCode.RATE_LIMITED,
      `Cost limit exceeded: this request costs ${requested} points and ${whose} has ${decision.remaining ?? 0} of ${limit} points per ${window} s left; retry in ${retryAfter} s`,
      { ...extensions, retryAfter },
    ),
    429,
    { 'retry-after': String(retryAfter) },
  );
}
