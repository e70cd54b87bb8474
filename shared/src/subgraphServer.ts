import type { IncomingHttpHeaders } from 'node:http';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLError } from 'graphql';
import { Histogram, type Registry } from 'prom-client';
import { Authenticator } from './auth/authenticator';
import { IDENTITY_HEADER, verifyIdentity } from './auth/signedIdentity';
import { mongoClientOptions } from './config';
import { Bulkhead } from './bulkhead';
import { checkRepresentations } from './entityRepresentations';
import { limitPerOrganization } from './organizationBulkhead';
import { createFormatError } from './formatError';
import {
  createGraphQLHttpHandler,
  graphqlEndpoint,
  listenHttp,
  type RequestInfo,
  type RouteHandler,
  type RunningHttpServer,
} from './http/graphqlHttpServer';
import { ADMIN_MAX_BODY_BYTES } from './import/csvImport';
import { signInRequired } from './auth/memberAccess';
import type { Logger } from './logger';
import { createRegistry, LATENCY_BUCKETS, metricsRoute } from './metrics/registry';
import { watchMongoPool } from './metrics/mongoPoolMetrics';
import { useRequestOutcome } from './metrics/useRequestOutcome';
import { connectMongo, pingMongo, type Connection } from './data/mongo';
import { unauthenticated, withHttpStatus } from './errors';
import { limitTextArguments } from './textArguments';
import { useErrorReporting } from './useErrorReporting';
import {
  ADMIN_GRAPHQL_PATH,
  subgraphSchema,
  type AdminSchema,
  type ServiceConfig,
  type SubgraphContext,
  type SubgraphResolvers,
} from './subgraph';

export interface SubgraphDefinition<C extends SubgraphContext> {
  name: string;
  schemaPath: string;
  /**
   * Fields below the roots (`Type.field`, in any of the service's schemas) whose resolvers read the
   * database for each parent on their own, with no loader batching the reads of a page's items: each
   * call takes a place in the organization's bulkhead (see limitPerOrganization).
   */
  readsPerParent?: readonly string[];
  /**
   * Builds the resolvers once the service's database is connected (and its indexes are in place);
   * `registry` is the service's metrics registry, for metrics of its own.
   */
  setUp(
    connection: Connection,
    registry: Registry,
  ): Promise<{
    resolvers: SubgraphResolvers;
    extendContext?: (base: SubgraphContext, headers: IncomingHttpHeaders) => C;
    /** Stops whatever the service started in setUp (timers); runs before the database closes. */
    close?: () => Promise<void>;
    /** GET routes of the service's own beside /graphql (e.g. export downloads). */
    routes?: Record<string, RouteHandler>;
    admin?: AdminSchema;
  }>;
}

export interface RunningSubgraph extends RunningHttpServer {
  connection: Connection;
}

export async function startSubgraph<C extends SubgraphContext>(
  definition: SubgraphDefinition<C>,
  config: ServiceConfig,
  logger: Logger,
): Promise<RunningSubgraph> {
  const connection = await connectMongo(config.mongodbUri, config.mongodbDb, mongoClientOptions(config));
  const registry = createRegistry(definition.name);
  const { resolvers, extendContext, close: closeService, routes, admin } = await definition.setUp(connection, registry);
  watchMongoPool(connection, registry);
  const duration = new Histogram({
    name: 'fi_subgraph_request_duration_seconds',
    help: 'Time to answer one GraphQL request, by root fields',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const bulkhead = new Bulkhead({
    concurrency: config.orgConcurrency,
    total: config.dbConcurrency,
    queue: config.orgQueue,
    maxWaitMs: config.orgQueueWaitMs,
  });
  /** Every schema of the service gets the same checks: text argument limits, the organization's bulkhead, entity scopes. */
  const serve = <X extends SubgraphContext>(schemaPath: string, schemaResolvers: SubgraphResolvers) =>
    new ApolloServer<X>({
      schema: checkRepresentations(
        limitTextArguments(
          limitPerOrganization(
            subgraphSchema(schemaPath, schemaResolvers),
            bulkhead,
            definition.name,
            new Set(definition.readsPerParent),
          ),
        ),
      ),
      formatError: createFormatError({
        debug: config.debugErrors,
        hideSuggestions: true,
        maxTimeMs: config.mongodbMaxTimeMs,
      }),
      includeStacktraceInErrorResponses: config.debugErrors,
      // Inline traces cost time on every request and only matter with Apollo usage reporting.
      // Without cache control (no @cacheControl anywhere) no plugin hooks into field resolution, so Apollo
      // does not wrap every resolver of the schema.
      plugins: [
        ApolloServerPluginInlineTraceDisabled(),
        ApolloServerPluginCacheControlDisabled(),
        useRequestOutcome<X>(),
        useErrorReporting<X>(),
      ],
      introspection: true,
      // The process's own SIGTERM handling drains HTTP first, then stops Apollo; Apollo must not race it.
      stopOnTerminationSignals: false,
    });
  const apollo = serve<C>(definition.schemaPath, resolvers);
  const adminApollo = admin ? serve<SubgraphContext>(admin.schemaPath, admin.resolvers) : null;
  await Promise.all([apollo.start(), adminApollo?.start()]);

  /**
   * Only what came through the gateway is served: without a valid signed identity nothing runs, and the
   * client learns no more than from an invalid key or a missing sign-in (the log says why, for the operator).
   */
  const principalsOf = ({ headers, logger: requestLogger, outcome }: RequestInfo, refusal: () => GraphQLError) => {
    const header = headers[IDENTITY_HEADER];
    const identity = verifyIdentity(config.identitySigningKeys, Array.isArray(header) ? header[0] : header);
    if (identity.ok) return identity.principals;
    requestLogger.warn({ reason: identity.reason }, 'request without a valid signed identity refused');
    const error = refusal();
    outcome.code = String(error.extensions.code);
    throw withHttpStatus(error, 200);
  };
  const baseContext = (
    { requestId, logger: requestLogger, outcome }: RequestInfo,
    auth: Authenticator,
  ): SubgraphContext => ({
    requestId,
    logger: requestLogger,
    outcome,
    auth,
    allowedOrgs: async () => auth.orgs(),
  });

  const handler = createGraphQLHttpHandler<C>({
    apollo,
    logger,
    readinessChecks: { database: () => pingMongo(connection) },
    routes: { ...routes, '/metrics': metricsRoute(registry) },
    observe: (outcome, seconds) => duration.observe({ operation: outcome.operation }, seconds),
    buildContext: async (info) => {
      const base = baseContext(info, Authenticator.forKeys(principalsOf(info, unauthenticated)));
      return extendContext ? extendContext(base, info.headers) : (base as C);
    },
    ...(adminApollo
      ? {
          graphqlRoutes: {
            [ADMIN_GRAPHQL_PATH]: graphqlEndpoint(
              adminApollo,
              async (info) => {
                const base = baseContext(info, Authenticator.forMember(principalsOf(info, signInRequired)));
                return admin?.extendContext ? admin.extendContext(base, info.headers) : base;
              },
              ADMIN_MAX_BODY_BYTES,
            ),
          },
        }
      : {}),
  });

  const http = await listenHttp(handler, config.port, config.host);
  logger.info({ url: `${http.url}/graphql` }, `${definition.name} subgraph listening`);
  return {
    ...http,
    connection,
    close: async (timeoutMs) => {
      await http.close(timeoutMs);
      await Promise.all([apollo.stop(), adminApollo?.stop()]);
      await closeService?.();
      await connection.close();
    },
  };
}
