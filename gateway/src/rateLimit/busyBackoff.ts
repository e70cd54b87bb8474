import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { appError, ErrorCode, type Principal, withHttpStatus } from '@fi/shared';

/** Callers remembered at most: beyond, the expired go first, then the oldest. */
const MAX_CALLERS = 10_000;

/**
 * Callers (keys, signed-in members) whose whole request a subgraph refused because their organization
 * had no place left for it (every error RATE_LIMITED from an organization's bulkhead, `Retry-After`
 * given). Until that wait has passed, their requests are refused here, before any subgraph: a client that
 * ignores `Retry-After` and sends the same heavy request in a loop (a page of 100 items with 20 similar
 * items each, and 20 more each) would otherwise have the subgraph read a page and refuse its nested reads
 * again and again, on the cores another organization's reads need. Per gateway instance and in memory:
 * the subgraphs' bulkheads stay the rule, this only stops asking them what they have just answered.
 */
export class BusyBackoff {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** The seconds the longest-waiting of `callers` must still wait (rounded up), or null when none must. */
  retryAfter(callers: string[]): number | null {
    const now = this.clock();
    let longest = 0;
    for (const caller of callers) {
      const until = this.until.get(caller);
      if (until === undefined) continue;
      if (until <= now) this.until.delete(caller);
      else longest = Math.max(longest, until - now);
    }
    return longest > 0 ? Math.ceil(longest / 1000) : null;
  }

  /** `callers` were told to retry in `seconds`. */
  record(callers: string[], seconds: number): void {
    const until = this.clock() + seconds * 1000;
    for (const caller of callers) {
      this.until.delete(caller);
      this.until.set(caller, until);
    }
    if (this.until.size <= MAX_CALLERS) return;
    const now = this.clock();
    for (const [caller, ends] of this.until) if (ends <= now) this.until.delete(caller);
    for (const caller of this.until.keys()) {
      if (this.until.size <= MAX_CALLERS) break;
      this.until.delete(caller);
    }
  }
}

/** The callers a request's principals stand for, as the points budget names them (a member's id is prefixed). */
export const callerIds = (principals: Principal[]): string[] => [
  ...new Set(principals.map((principal) => (principal.kind === 'member' ? `member:${principal.ref}` : principal.ref))),
];

/** The refusal of a caller still within the wait a subgraph gave it. */
export function stillBusy(retryAfter: number) {
  return withHttpStatus(
    appError(
      ErrorCode.RATE_LIMITED,
      `Your last request was refused because this organization had too many operations in progress; retry in ${retryAfter} s`,
      { retryAfter },
    ),
    429,
    { 'retry-after': String(retryAfter) },
  );
}

/**
 * The wait a response gives when it answered nothing and every error is a subgraph's bulkhead refusing the
 * organization (they name their `service`; the gateway's own refusals do not), else null.
 */
function organizationBusyFor(data: unknown, errors: readonly GraphQLFormattedError[] | undefined): number | null {
  const nothingAnswered = !data || Object.values(data).every((value) => value === null);
  if (!nothingAnswered || !errors?.length) return null;
  const refusals = errors.every(
    (error) => error.extensions?.code === ErrorCode.RATE_LIMITED && typeof error.extensions.service === 'string',
  );
  return refusals ? Math.max(1, ...errors.map((error) => Number(error.extensions?.retryAfter) || 1)) : null;
}

/** Records the request's callers in `backoff` when a subgraph refused the whole request for its organization. */
export function useBusyBackoff<C extends BaseContext>(
  backoff: BusyBackoff,
  callersOf: (context: C) => Promise<string[]>,
): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          const seconds = organizationBusyFor(data, errors);
          if (seconds !== null) backoff.record(await callersOf(contextValue), seconds);
        },
      };
    },
  };
}
