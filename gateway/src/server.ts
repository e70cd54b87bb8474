import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { GraphQLError } from 'graphql';
import {
  ApiKeyStore,
  ApiKeyVerifier,
  Authenticator,
  connectMongo,
  createFormatError,
  createGraphQLHttpHandler,
  IDEMPOTENCY_KEY_HEADER,
  listenHttp,
  pingMongo,
  withHttpStatus,
  type Logger,
  type RunningHttpServer,
} from '@fi/shared';
import { authenticateRequest } from './auth/authenticateRequest';
import { DocumentCache } from './auth/documentCache';
import type { KeyedRootFields } from './auth/extractApiKeys';
import { keyedRootFields } from './auth/keyedRootFields';
import type { GatewayConfig } from './config';
import type { GatewayContext } from './context';
import { SubgraphDataSource } from './subgraphDataSource';

function subgraphUrlOverrides(config: GatewayConfig): Record<string, string> {
  const overrides: Record<string, string> = {
    feedback: config.feedbackUrl,
    contacts: config.contactsUrl,
    accounts: config.accountsUrl,
  };
  return Object.fromEntries(Object.entries(overrides).filter(([, url]) => url !== ''));
}

/** Builds and starts the gateway on the configured port (0 picks a free one, as tests do). */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningHttpServer> {
  let supergraphSdl: string;
  try {
    supergraphSdl = readFileSync(config.supergraphPath, 'utf8');
  } catch {
    throw new Error(`No supergraph at ${config.supergraphPath}: run "npm run compose" first`);
  }
  const authConnection = await connectMongo(config.authMongodbUri || config.mongodbUri, config.authMongodbDb);
  const authenticator = new Authenticator(new ApiKeyVerifier(new ApiKeyStore(authConnection), config.authCacheTtlMs));

  const urls = subgraphUrlOverrides(config);
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => new SubgraphDataSource({ url: urls[name] ?? url }),
    logger,
  });
  let keyedFields: KeyedRootFields = new Map();
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
    keyedFields = keyedRootFields(apiSchema);
  });

  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: config.introspection,
    // The process's own SIGTERM handling drains HTTP first, then stops Apollo; Apollo must not race it.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: config.debugErrors,
    formatError: createFormatError({
      debug: config.debugErrors,
      onInternalError: (error) => logger.error({ err: error }, 'internal error'),
    }),
  });
  await apollo.start();

  const documents = new DocumentCache();
  const handler = createGraphQLHttpHandler<GatewayContext>({
    apollo,
    logger,
    readinessChecks: { keyStore: () => pingMongo(authConnection) },
    buildContext: async ({ requestId, headers, body, logger: requestLogger }) => {
      try {
        const { apiKeys, callers } = await authenticateRequest(body, documents, keyedFields, authenticator);
        const idempotencyKey = headers[IDEMPOTENCY_KEY_HEADER];
        return {
          requestId,
          logger: requestLogger,
          apiKeys,
          callers,
          idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
        };
      } catch (error) {
        // A refused key is an ordinary GraphQL error result, not a server failure.
        if (error instanceof GraphQLError) throw withHttpStatus(error, 200);
        throw error;
      }
    },
  });

  const http = await listenHttp(handler, config.port, config.host);
  logger.info({ url: `${http.url}/graphql` }, 'gateway listening');
  return {
    ...http,
    close: async (timeoutMs) => {
      await http.close(timeoutMs);
      await apollo.stop();
      await authConnection.close();
    },
  };
}
