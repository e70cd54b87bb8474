import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { NoSchemaIntrospectionCustomRule, specifiedRules, validate } from 'graphql';
import type Redis from 'ioredis';
import {
  Bulkhead,
  createFormatError,
  createGraphQLHttpHandler,
  createRegistry,
  listenHttp,
  metricsRoute,
  useErrorReporting,
  useRequestOutcome,
  type Logger,
  type RunningHttpServer,
} from '@fi/shared';
import { ADMIN_GRAPHQL_PATH, startAdminApi } from './admin/adminApi';
import { apiKeyCaller } from './auth/apiKeyCaller';
import { DocumentCache } from './auth/documentCache';
import { dashboardFiles } from './dashboard/dashboardFiles';
import { IdentityClient } from './auth/identityClient';
import { dedupeInflightQueries } from './dedupeInflightQueries';
import { exportDownloadRoutes } from './exportDownloads';
import type { KeyedRootFields } from './auth/extractApiKeys';
import { keyedRootFields } from './auth/keyedRootFields';
import type { GatewayConfig } from './config';
import type { GatewayContext } from './context';
import { readCostDirectives } from './cost/costDirectives';
import type { PricedSchema } from './cost/operationCost';
import { GatewayMetrics } from './metrics/gatewayMetrics';
import { hostileQueryLimits } from './plugins/hostileQueryLimits';
import { useLimitErrors } from './plugins/useLimitErrors';
import { useFailureStatus } from './plugins/useFailureStatus';
import { useOperationChoice } from './plugins/useOperationChoice';
import { useParseCount } from './plugins/useParseCount';
import { useResponseReport } from './plugins/useResponseReport';
import { InvalidKeyGuard } from './rateLimit/invalidKeyGuard';
import { KeyRateLimits } from './rateLimit/keyRateLimits';
import { PointsBudget } from './rateLimit/pointsBudget';
import { LiveInstances } from './rateLimit/liveInstances';
import { BusyBackoff, callerIds, useBusyBackoff } from './rateLimit/busyBackoff';
import { connectRedis } from './rateLimit/redisClient';
import { WindowCounter } from './rateLimit/windowCounter';
import { createRequestGate } from './requestGate';
import { scimProxyRoutes } from './scim/scimProxy';
import { samlProxyRoutes } from './sso/samlProxy';
import { SubgraphDataSource } from './subgraphDataSource';
import { SupergraphSource } from './supergraph/supergraphSource';

function subgraphUrlOverrides(config: GatewayConfig): Record<string, string> {
  const overrides: Record<string, string> = {
    feedback: config.feedbackUrl,
    contacts: config.contactsUrl,
    accounts: config.accountsUrl,
    integrations: config.integrationsUrl,
  };
  return Object.fromEntries(Object.entries(overrides).filter(([, url]) => url !== ''));
}

/**
 * A subgraph is reachable when its /health answers (its own /ready covers its database). The identity
 * service must be ready, database included: without it no key can be verified, as when the key store
 * itself was down.
 */
async function pingService(url: string, path: '/health' | '/ready' = '/health'): Promise<void> {
  const response = await fetch(new URL(path, url), { signal: AbortSignal.timeout(1_500) });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
}

/** Builds and starts the gateway on the configured port (0 picks a free one, as tests do). */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningHttpServer> {
  // First, so a missing build stops the start before anything else is opened.
  const dashboard = config.dashboardDir ? dashboardFiles(config.dashboardDir) : null;
  const supergraphSource = new SupergraphSource({
    path: config.supergraphPath,
    url: config.supergraphUrl,
    pollMs: config.supergraphPollMs,
    fetchTimeoutMs: config.supergraphFetchTimeoutMs,
    logger,
    onReload: (outcome) => metrics.supergraphReloads.inc({ outcome }),
  });
  const supergraphSdl = await supergraphSource.initial();
  const identity = new IdentityClient({
    url: config.identityUrl,
    timeoutMs: config.identityTimeoutMs,
    cacheTtlMs: config.authCacheTtlMs,
  });
  const registry = createRegistry('gateway');
  const metrics = new GatewayMetrics(registry);

  const redis: Redis | null = config.redisUrl
    ? await connectRedis(config.redisUrl, config.redisTimeoutMs, logger)
    : null;
  // With Redis the instances count themselves there; GATEWAY_INSTANCES is only the first assumption.
  const instances = redis
    ? new LiveInstances({
        redis,
        key: `${config.redisKeyPrefix}:instances`,
        assumed: config.gatewayInstances,
        onChange: (count) => logger.info({ instances: count }, 'gateway instances sharing Redis'),
      })
    : null;
  await instances?.start();
  const counter = new WindowCounter({
    redis,
    keyPrefix: config.redisKeyPrefix,
    windowSeconds: config.rateLimitWindowSeconds,
    instances: () => instances?.count ?? config.gatewayInstances,
    logger,
    onModeChange: (mode) => metrics.insuranceMode.set(mode === 'insurance' ? 1 : 0),
  });
  const tierLimits = { free: config.rateLimitFree, pro: config.rateLimitPro, enterprise: config.rateLimitEnterprise };
  const keyLimits = new KeyRateLimits(counter, tierLimits, config.rateLimitWindowSeconds);

  // Unless this variable is set, @apollo/gateway probes cloud metadata addresses and reports the
  // process (uptime, CPUs, memory, cloud provider) to Apollo's servers every hour. Nothing here asks for
  // that, so it is off unless an operator sets the variable to something else.
  process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';
  const urls = subgraphUrlOverrides(config);
  const dataSources: Array<SubgraphDataSource<GatewayContext>> = [];
  // Filled as the gateway loads the supergraph (apollo.start), read by the readiness checks after it.
  const subgraphUrls: Record<string, string> = {};
  const gateway = new ApolloGateway({
    supergraphSdl: supergraphSource.hook(supergraphSdl),
    buildService: ({ name, url }) => {
      subgraphUrls[name] = urls[name] ?? url ?? '';
      const source = new SubgraphDataSource<GatewayContext>({
        name,
        url: subgraphUrls[name],
        timeoutMs: config.subgraphTimeoutMs,
        metrics,
        caller: apiKeyCaller(config.identitySigningKeys, config.identityTokenTtlMs),
      });
      dataSources.push(source);
      return source;
    },
    logger,
  });
  let keyedFields: KeyedRootFields = new Map();
  let pricedSchema: PricedSchema | null = null;
  gateway.onSchemaLoadOrUpdate(({ apiSchema, coreSupergraphSdl }) => {
    keyedFields = keyedRootFields(apiSchema);
    pricedSchema = { schema: apiSchema, directives: readCostDirectives(coreSupergraphSdl) };
  });

  // Keys and members a subgraph has just refused for their organization's share (both APIs).
  const busyBackoff = new BusyBackoff();
  const limits = hostileQueryLimits({
    maxDepth: config.maxDepth,
    maxAliases: config.maxAliases,
    maxDirectives: config.maxDirectives,
    maxTokens: config.maxTokens,
    maxCost: config.maxCost,
  });
  const documents = new DocumentCache(limits.parseOptions, () => metrics.documentParses.inc({ by: 'gate' }));
  // The rules Apollo validates with (NoIntrospection is its own when introspection is off; only validity matters here).
  const validationRules = [
    ...specifiedRules,
    ...(config.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
    ...limits.validationRules,
  ];
  const apollo = new ApolloServer<GatewayContext>({
    gateway: config.dedupeQueries ? dedupeInflightQueries(gateway) : gateway,
    introspection: config.introspection,
    // Automatic persisted queries off (PERSISTED_QUERY_NOT_SUPPORTED; clients send the document): the
    // gateway reads a request's keys and cost from its document before Apollo would look a hash up.
    persistedQueries: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    // The document the request gate parsed, not a second parse (validated once per schema).
    documentStore: documents.documentStore(
      () => pricedSchema?.schema ?? null,
      (schema, document) => validate(schema, document, validationRules).length === 0,
    ),
    plugins: [
      ...limits.plugins,
      useParseCount<GatewayContext>(() => metrics.documentParses.inc({ by: 'apollo' })),
      useOperationChoice<GatewayContext>(),
      ApolloServerPluginInlineTraceDisabled(),
      // No @cacheControl anywhere: the default cache-control plugin would only cost time per request.
      ApolloServerPluginCacheControlDisabled(),
      useRequestOutcome<GatewayContext>(),
      useResponseReport(),
      useFailureStatus<GatewayContext>(),
      useBusyBackoff<GatewayContext>(busyBackoff, (context) => Promise.resolve(callerIds(context.principals))),
      useLimitErrors<GatewayContext>(),
      useErrorReporting<GatewayContext>(),
    ],
    // The process's own SIGTERM handling drains HTTP first, then stops Apollo; Apollo must not race it.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: config.debugErrors,
    formatError: createFormatError({
      debug: config.debugErrors,
      hideSuggestions: !config.fieldSuggestions,
    }),
  });
  await apollo.start();
  const pointsBudget = new PointsBudget(counter, keyLimits, config.costPointsPerRequest, config.rateLimitWindowSeconds);
  const admin = await startAdminApi({ config, identity, metrics, limits, pointsBudget, busyBackoff, logger });

  const saml = samlProxyRoutes({
    identityUrl: config.identityUrl,
    timeoutMs: config.identityTimeoutMs,
    trustProxy: config.trustProxy,
    logger,
  });
  const handler = createGraphQLHttpHandler<GatewayContext>({
    apollo,
    logger,
    readinessChecks: {
      identity: () => pingService(config.identityUrl, '/ready'),
      // Always ok: a rejected update leaves the previous supergraph serving; the details say which.
      supergraph: { check: async () => undefined, details: () => supergraphSource.details() },
      ...Object.fromEntries(
        Object.entries(subgraphUrls).map(([name, url]) => [`subgraph:${name}`, () => pingService(url)]),
      ),
      ...(redis ? { redis: { optional: true as const, check: () => redis.ping() } } : {}),
    },
    status: () => ({ rateLimiter: { store: counter.mode, ...(instances ? { instances: instances.count } : {}) } }),
    routes: {
      '/metrics': metricsRoute(registry),
      ...exportDownloadRoutes(subgraphUrls, config.subgraphTimeoutMs, identity, logger),
      ...saml.get,
    },
    postRoutes: saml.post,
    graphqlRoutes: { [ADMIN_GRAPHQL_PATH]: admin.endpoint },
    prefixRoutes: scimProxyRoutes({
      identityUrl: config.identityUrl,
      timeoutMs: config.identityTimeoutMs,
      trustProxy: config.trustProxy,
      logger,
    }),
    ...(dashboard ? { getFallback: dashboard } : {}),
    observe: (outcome, seconds) => metrics.observeRequest(outcome.operation, outcome.code, seconds),
    buildContext: createRequestGate({
      documents,
      keyedFields: () => keyedFields,
      pricedSchema: () => pricedSchema,
      pointsBudget,
      busyBackoff,
      keyConcurrency: new Bulkhead({
        concurrency: config.keyConcurrency,
        queue: config.keyQueue,
        maxWaitMs: config.keyQueueWaitMs,
      }),
      identity,
      keyLimits,
      invalidKeyGuard: new InvalidKeyGuard(counter, config.invalidKeyLimit),
      metrics,
      trustProxy: config.trustProxy,
    }),
  });

  const http = await listenHttp(handler, config.port, config.host);
  logger.info({ url: `${http.url}/graphql`, rateLimitStore: counter.mode }, 'gateway listening');
  return {
    ...http,
    close: async (timeoutMs) => {
      await http.close(timeoutMs);
      await Promise.all([apollo.stop(), admin.close()]);
      await Promise.all(dataSources.map((source) => source.close()));
      await keyLimits.flush();
      counter.close();
      await instances?.stop();
      redis?.disconnect();
      await identity.close();
    },
  };
}
