import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import {
  ADMIN_MAX_BODY_BYTES,
  createFormatError,
  csrfRequired,
  signInRequired,
  graphqlEndpoint,
  unavailableError,
  UNAVAILABLE_HTTP,
  useErrorReporting,
  useRequestOutcome,
  withHttpStatus,
  type GraphQLEndpoint,
  type Logger,
  type RequestInfo,
} from '@fi/shared';
import { clientAddress } from '../auth/clientAddress';
import { IdentityUnavailableError, type IdentityClient, type SessionCheck } from '../auth/identityClient';
import type { GatewayConfig } from '../config';
import type { GatewayMetrics } from '../metrics/gatewayMetrics';
import type { hostileQueryLimits } from '../plugins/hostileQueryLimits';
import { useFailureStatus } from '../plugins/useFailureStatus';
import { useLimitErrors } from '../plugins/useLimitErrors';
import { useOperationChoice } from '../plugins/useOperationChoice';
import { readCostDirectives, type CostDirectives } from '../cost/costDirectives';
import { operationCost, type PricedSchema } from '../cost/operationCost';
import { type BusyBackoff, callerIds, stillBusy, useBusyBackoff } from '../rateLimit/busyBackoff';
import type { PointsBudget } from '../rateLimit/pointsBudget';
import { overPoints } from '../requestGate';
import { SubgraphDataSource } from '../subgraphDataSource';
import { memberCaller, sessionCaller } from './adminCallers';
import type { AdminContext } from './adminContext';

/** Where the web application's pages reach the admin API (sessions, members, keys, contacts, accounts). */
export const ADMIN_GRAPHQL_PATH = '/admin/graphql';

/**
 * The admin API's supergraph, composed by `npm run compose` from the identity service's schema and the
 * services' admin schemas (scripts/supergraph.ts). It ships with the gateway, as the page that uses it does.
 */
export const ADMIN_SUPERGRAPH_PATH = path.join(__dirname, 'adminSupergraph.graphql');

/** What the identity service is given of the page's request (see AdminContext.pageHeaders). */
const PAGE_HEADERS = ['cookie', 'x-csrf-token', 'origin'] as const;

const identityUnavailable = () =>
  unavailableError('The identity service is unavailable; retry shortly', { service: 'identity' });

/**
 * POST /admin/graphql: a federated API of its own beside the public /graphql, whose schema knows nothing of
 * it. Each operation is answered by the service that owns its data; the identity service turns the session
 * cookie into the signed-in member, whom the services' admin schemas are told in a signed identity and
 * whose role they check. A mutation sent with a live session must carry its CSRF token.
 */
export async function startAdminApi(deps: {
  config: GatewayConfig;
  identity: IdentityClient;
  metrics: GatewayMetrics;
  limits: ReturnType<typeof hostileQueryLimits>;
  /** The public API's points, charged here to the signed-in member (docs/limits.md, Cost). */
  pointsBudget: PointsBudget;
  /** Members a subgraph has just refused for their organization's share, until their Retry-After. */
  busyBackoff: BusyBackoff;
  logger: Logger;
}): Promise<{ endpoint: GraphQLEndpoint; close(): Promise<void> }> {
  const { config, identity, metrics, limits, pointsBudget, busyBackoff, logger } = deps;
  // Each admin schema is served at the origin of its service's configured URL, at the path composed in.
  const origins: Record<string, string> = {
    identity: config.identityUrl,
    feedback: config.feedbackUrl,
    contacts: config.contactsUrl,
    accounts: config.accountsUrl,
    integrations: config.integrationsUrl,
  };
  const members = memberCaller(config.identitySigningKeys, config.identityTokenTtlMs);
  const dataSources: Array<SubgraphDataSource<AdminContext>> = [];
  const supergraphSdl = readFileSync(ADMIN_SUPERGRAPH_PATH, 'utf8');
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url = '' }) => {
      const composed = new URL(url);
      const source = new SubgraphDataSource<AdminContext>({
        name,
        url: origins[name] ? new URL(composed.pathname, origins[name]).href : composed.href,
        timeoutMs: config.subgraphTimeoutMs,
        metrics,
        caller: name === 'identity' ? sessionCaller : members,
      });
      dataSources.push(source);
      return source;
    },
    logger,
  });
  const apollo = new ApolloServer<AdminContext>({
    gateway,
    introspection: config.introspection,
    // Automatic persisted queries off (PERSISTED_QUERY_NOT_SUPPORTED; clients send the document): the
    // gateway reads a request's keys and cost from its document before Apollo would look a hash up.
    persistedQueries: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    plugins: [
      ...(limits.plugins as Array<ApolloServerPlugin<AdminContext>>),
      useOperationChoice<AdminContext>(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      useSessionProtection(),
      useMemberBudget(pointsBudget, busyBackoff, readCostDirectives(supergraphSdl)),
      useRequestOutcome<AdminContext>(),
      useFailureStatus<AdminContext>(),
      useBusyBackoff<AdminContext>(busyBackoff, signedInCaller),
      useLimitErrors<AdminContext>(),
      useErrorReporting<AdminContext>(),
    ],
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: config.debugErrors,
    formatError: createFormatError({ debug: config.debugErrors, hideSuggestions: !config.fieldSuggestions }),
  });
  await apollo.start();

  const buildContext = async ({
    requestId,
    logger: requestLogger,
    outcome,
    headers,
    remoteAddress,
  }: RequestInfo): Promise<AdminContext> => {
    const pageHeaders: Record<string, string> = {
      'x-forwarded-for': clientAddress(headers, remoteAddress, config.trustProxy),
    };
    for (const name of PAGE_HEADERS) {
      const value = headers[name];
      if (typeof value === 'string') pageHeaders[name] = value;
    }
    const sessionHeaders = Object.fromEntries(
      Object.entries(pageHeaders).filter(([name]) => name === 'cookie' || name === 'x-csrf-token'),
    );
    let asked: Promise<SessionCheck> | null = null;
    const session = () =>
      (asked ??= identity.verifySession(sessionHeaders).catch((error: unknown) => {
        throw error instanceof IdentityUnavailableError ? identityUnavailable() : error;
      }));
    return {
      requestId,
      logger: requestLogger,
      outcome,
      pageHeaders,
      hasSessionCookie: pageHeaders.cookie !== undefined,
      session,
      setCookie: undefined,
    };
  };

  return {
    endpoint: graphqlEndpoint(apollo, buildContext, ADMIN_MAX_BODY_BYTES),
    close: async () => {
      await apollo.stop();
      await Promise.all(dataSources.map((source) => source.close()));
    },
  };
}

/**
 * CSRF protection of every state-changing request made with a session cookie, whichever service owns the
 * operation: a mutation sent with a live session must carry that session's CSRF token, which a page of
 * another origin cannot read (the identity service tells whether it does). This is the only CSRF check:
 * a browser reaches the admin schemas only here, the other services never see the cookie, and the
 * identity service is reached only from the gateway (its network policy), so a check of its own would
 * repeat this one for its operations. Every answer is uncacheable and carries the Set-Cookie of a
 * sign-in or sign-out.
 */
function useSessionProtection(): ApolloServerPlugin<AdminContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, contextValue }) {
          if (operation && introspects(document, operation.selectionSet)) {
            // The admin schema maps what a member can do; only a signed-in member may read it.
            const check = contextValue.hasSessionCookie ? await sessionOrUnavailable(contextValue) : null;
            if (!check?.principal) throw withHttpStatus(signInRequired(), 200);
          }
          if (operation?.operation !== 'mutation' || !contextValue.hasSessionCookie) return;
          const check = await sessionOrUnavailable(contextValue);
          // A refusal is an ordinary GraphQL error result, not a server failure.
          if (check.principal && !check.csrfValid) throw withHttpStatus(csrfRequired(), 200);
        },
        async willSendResponse({ response, contextValue }) {
          if (contextValue.setCookie) response.http.headers.set('set-cookie', contextValue.setCookie);
          response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}

/**
 * The admin API is priced and limited as the public API is, per signed-in member instead of per key: the
 * same formula on the admin schema, the same points per window of the organization's tier, so no person
 * can send the database work the public API refuses (a page of 100 items each with 20 similar items,
 * each with 20 more: 46,202 points). Without a session nothing is priced: nothing of the services runs.
 */
function useMemberBudget(
  pointsBudget: PointsBudget,
  busyBackoff: BusyBackoff,
  directives: CostDirectives,
): ApolloServerPlugin<AdminContext> {
  // One per schema, so a cost no variable decides is computed once (operationCost).
  const pricedSchemas = new WeakMap<GraphQLSchema, PricedSchema>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, schema, contextValue }) {
          if (!operation || !contextValue.hasSessionCookie) return;
          // By the cookies first: a member looping on a refused request costs the identity service nothing.
          const cookiesBusyFor = busyBackoff.retryAfter([cookiesCaller(contextValue)]);
          if (cookiesBusyFor !== null) throw stillBusy(cookiesBusyFor);
          const { principal } = await sessionOrUnavailable(contextValue);
          if (!principal) return;
          const busyFor = busyBackoff.retryAfter(callerIds([principal]));
          if (busyFor !== null) throw stillBusy(busyFor);
          let priced = pricedSchemas.get(schema);
          if (!priced) pricedSchemas.set(schema, (priced = { schema, directives }));
          const requested = operationCost(priced, { document, operation, variables: request.variables ?? {} });
          const { orgId, tier, readOnly, rateLimitPerMinute } = principal;
          const member = { keyId: callerIds([principal])[0], orgId, tier, readOnly, rateLimitPerMinute };
          const refused = (await pointsBudget.charge([member], requested)).filter((decision) => !decision.allowed);
          if (refused.length > 0) throw overPoints(refused, 'this member');
        },
      };
    },
  };
}

/**
 * The signed-in member of a request, as the points budget and BusyBackoff name callers, and the request's
 * cookies (a digest: the session's secret is not kept); none without a session.
 */
async function signedInCaller(context: AdminContext): Promise<string[]> {
  if (!context.hasSessionCookie) return [];
  const { principal } = await context.session().catch(() => ({ principal: null }));
  return principal ? [...callerIds([principal]), cookiesCaller(context)] : [];
}

const cookiesCaller = (context: AdminContext) =>
  `cookies:${createHash('sha256')
    .update(context.pageHeaders.cookie ?? '')
    .digest('base64url')}`;

async function sessionOrUnavailable(context: AdminContext): Promise<SessionCheck> {
  try {
    return await context.session();
  } catch {
    throw withHttpStatus(identityUnavailable(), UNAVAILABLE_HTTP.status, UNAVAILABLE_HTTP.headers);
  }
}

/** Whether a root selection (through fragments too) asks for `__schema` or `__type`. */
function introspects(document: DocumentNode, selectionSet: SelectionSetNode, seen = new Set<string>()): boolean {
  return selectionSet.selections.some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === '__schema' || selection.name.value === '__type';
    if (selection.kind === Kind.INLINE_FRAGMENT) return introspects(document, selection.selectionSet, seen);
    const name = selection.name.value;
    if (seen.has(name)) return false;
    seen.add(name);
    const fragment = document.definitions.find(
      (definition): definition is FragmentDefinitionNode =>
        definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name,
    );
    return fragment ? introspects(document, fragment.selectionSet, seen) : false;
  });
}
