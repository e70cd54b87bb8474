import { IDENTITY_HEADER, signIdentity, type Principal, type SigningKeyring } from '@fi/shared';

/** A call the other service refused by its rules (BAD_REQUEST, NOT_FOUND, FORBIDDEN): retrying changes nothing. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The other service could not answer now (down, busy, timed out): the call may be retried later. */
export class Unavailable extends Error {}

// Apollo's protocol codes (a variable of the wrong type) are refusals too: the same input fails again.
const REFUSALS = new Set([
  'BAD_REQUEST',
  'NOT_FOUND',
  'FORBIDDEN',
  'UNAUTHENTICATED',
  'BAD_USER_INPUT',
  'GRAPHQL_VALIDATION_FAILED',
]);

/** How long the identity this service signs for one call is valid: long enough for the call only. */
const IDENTITY_TTL_MS = 60_000;

/**
 * The integrations service acting for a connection in another service: it signs, with the keys the gateway
 * signs with, an identity naming the connection (`integration:<id>`) in its organization, and calls that
 * service's own GraphQL API, whose rules decide. It never opens another service's database.
 */
export function connectionPrincipal(connection: { id: string; orgId: string }, kind: Principal['kind']): Principal {
  return {
    ref: `integration:${connection.id}`,
    kind,
    orgId: connection.orgId,
    // A member's admin schema checks the role: adding contacts and accounts needs a writer's.
    role: 'admin',
    tier: 'pro',
    readOnly: false,
    rateLimitPerMinute: null,
  };
}

export interface ServiceCallOptions {
  signingKeys: SigningKeyring;
  timeoutMs: number;
}

/** One GraphQL operation at `url` as `principal`; the data, or Refused / Unavailable. */
export async function callService<T>(
  options: ServiceCallOptions,
  url: string,
  principal: Principal,
  query: string,
  variables: Record<string, unknown>,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [IDENTITY_HEADER]: signIdentity(options.signingKeys, [principal], IDENTITY_TTL_MS),
      },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw new Unavailable(`${new URL(url).host} did not answer: ${(error as Error).message}`);
  }
  let body: { data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new Unavailable(`${new URL(url).host} answered ${response.status} without JSON`);
  }
  const error = body.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'INTERNAL_SERVER_ERROR';
    if (REFUSALS.has(code)) throw new Refused(error.message, code);
    throw new Unavailable(`${code}: ${error.message}`);
  }
  if (!body.data) throw new Unavailable(`${new URL(url).host} answered ${response.status} without data`);
  return body.data;
}
