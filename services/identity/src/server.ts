import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import type { IncomingHttpHeaders } from 'node:http';
import {
  createFormatError,
  SecretBox,
  createGraphQLHttpHandler,
  createRegistry,
  listenHttp,
  metricsRoute,
  mongoClientOptions,
  subgraphSchema,
  useErrorReporting,
  useRequestOutcome,
  type Logger,
  type RunningHttpServer,
} from '@fi/shared';
import { connectMongo, pingMongo, watchMongoPool, type Connection } from '@fi/shared/database';
import type { IdentityConfig } from './config';
import { openRepositories, purgeExpired } from './data/repositories';
import { AccountLinkService } from './domain/accountLinks';
import { KeyService } from './domain/keyService';
import { MemberService } from './domain/memberService';
import { ResetRequestLimit } from './domain/resetRequestLimit';
import { SessionService } from './domain/sessionService';
import { SignInThrottle } from './domain/signInThrottle';
import {
  AUDIT_PATH,
  auditRoute,
  KEY_LIVE_PATH,
  MAIL_RECIPIENTS_PATH,
  mailRecipientsRoute,
  keyLiveRoute,
  sessionTokenOf,
  useSessionCookie,
  VERIFY_KEY_PATH,
  verifyKeyRoute,
  VERIFY_SESSION_PATH,
  verifySessionRoute,
} from './http';
import { createLinkMailer } from './mail';
import { openScim, scimResolvers } from './scim';
import { openTwoFactor, twoFactorResolvers } from './twoFactor';
import type { Resolvers } from './generated/resolvers';
import type { IdentityContext } from './identityContext';
import { createIdentityResolvers } from './resolvers';
import { openSsoRepositories, samlRoutes, ssoBindingOf, ssoPasswordPolicy, SsoSettings, SsoSignIn } from './sso';

export const IDENTITY_SCHEMA_PATH = path.join(__dirname, 'schema.graphql');
const PURGE_INTERVAL_MS = 10 * 60_000;

export interface RunningIdentityService extends RunningHttpServer {
  connection: Connection;
}

/** Builds and starts the identity service on the configured port (0 picks a free one, as tests do). */
export async function startIdentityService(config: IdentityConfig, logger: Logger): Promise<RunningIdentityService> {
  const connection = await connectMongo(config.mongodbUri, config.mongodbDb, mongoClientOptions(config));
  const repositories = await openRepositories(connection);
  const sso = await openSsoRepositories(connection);
  const keys = new KeyService(repositories);
  const throttle = new SignInThrottle(repositories.signInFailures, {
    perAccount: config.signInLimitPerAccount,
    perAddress: config.signInLimitPerAddress,
    windowMs: config.signInWindowMinutes * 60_000,
    checksPerAddress: config.signInChecksPerAddress,
  });
  const twoFactor = await openTwoFactor(connection, repositories, throttle, {
    secretKey: config.twoFactorSecretKey,
    challengeMinutes: config.twoFactorChallengeMinutes,
    // Over every address a member's codes get twice what one address gets (SIGN_IN_LIMIT_PER_ACCOUNT).
    perMemberLimit: config.signInLimitPerAccount * 2,
  });
  const sessions = new SessionService(
    repositories,
    throttle,
    { idleMs: config.sessionIdleMinutes * 60_000, absoluteMs: config.sessionAbsoluteHours * 3_600_000 },
    ssoPasswordPolicy(repositories, sso),
    twoFactor.service,
  );
  const ssoSecrets = config.ssoSecretKey ? new SecretBox(config.ssoSecretKey, 'SSO_SECRET_KEY') : null;
  const ssoSignIn = new SsoSignIn(repositories, sso, sessions, ssoSecrets, {
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    allowLoopbackHttp: config.ssoAllowLoopbackHttp,
  });
  const ssoSettings = new SsoSettings(repositories, sso, ssoSecrets, {
    allowLoopbackHttp: config.ssoAllowLoopbackHttp,
    dnsServers: config.ssoDnsServers,
  });
  const members = new MemberService(repositories);
  const mailer = createLinkMailer(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, production: config.nodeEnv === 'production' },
    logger,
  );
  const links = new AccountLinkService(
    repositories,
    members,
    sessions,
    mailer,
    {
      publicUrl: config.publicUrl.replace(/\/+$/, ''),
      invitationTtlMs: config.invitationTtlHours * 3_600_000,
      passwordResetTtlMs: config.passwordResetTtlMinutes * 60_000,
    },
    new ResetRequestLimit(repositories.signInFailures, config.signInWindowMinutes * 60_000),
  );
  const scim = await openScim(connection, repositories, members, {
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    addressOf: (req) => clientAddress(req.headers, req.socket.remoteAddress ?? ''),
    logger,
  });
  const saml = samlRoutes(ssoSignIn, config.publicUrl.replace(/\/+$/, ''), (req) =>
    clientAddress(req.headers, req.socket.remoteAddress ?? ''),
  );
  const registry = createRegistry('identity');
  watchMongoPool(connection, registry);

  const apollo = new ApolloServer<IdentityContext>({
    // A federation subgraph schema: the gateway composes it with the services' admin schemas (docs/identity.md).
    schema: subgraphSchema(
      IDENTITY_SCHEMA_PATH,
      withFeatures(
        createIdentityResolvers({
          repositories,
          keys,
          members,
          sessions,
          links,
          cookieSecure: config.cookieSecure,
          sso: { settings: ssoSettings, signIn: ssoSignIn, cookieSecure: config.cookieSecure },
        }),
        scimResolvers(scim.tokens),
        twoFactorResolvers({ twoFactor: twoFactor.service, sessions, repositories, cookieSecure: config.cookieSecure }),
      ),
    ),
    formatError: createFormatError({
      debug: config.debugErrors,
      hideSuggestions: true,
      maxTimeMs: config.mongodbMaxTimeMs,
    }),
    includeStacktraceInErrorResponses: config.debugErrors,
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      useSessionCookie(),
      useRequestOutcome<IdentityContext>(),
      useErrorReporting<IdentityContext>(),
    ],
    introspection: true,
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  const handler = createGraphQLHttpHandler<IdentityContext>({
    apollo,
    logger,
    readinessChecks: { database: () => pingMongo(connection) },
    routes: { '/metrics': metricsRoute(registry), ...saml.get },
    postRoutes: {
      [VERIFY_KEY_PATH]: verifyKeyRoute(keys),
      [VERIFY_SESSION_PATH]: verifySessionRoute(sessions),
      [KEY_LIVE_PATH]: keyLiveRoute(keys),
      ...saml.post,
      [MAIL_RECIPIENTS_PATH]: mailRecipientsRoute(repositories.members),
      [AUDIT_PATH]: auditRoute(repositories),
    },
    prefixRoutes: scim.routes,
    buildContext: async ({ requestId, headers, logger: requestLogger, outcome, remoteAddress }) => {
      const sessionToken = sessionTokenOf(headers);
      const session = await sessions.resolve(sessionToken);
      return {
        requestId,
        logger: requestLogger,
        outcome,
        address: clientAddress(headers, remoteAddress),
        sessionToken,
        session,
        ssoBinding: ssoBindingOf(headers),
        setCookie: undefined,
      };
    },
  });

  const http = await listenHttp(handler, config.port, config.host);
  logger.info({ url: `${http.url}/graphql` }, 'identity service listening');
  const sweeper = setInterval(() => {
    Promise.all([purgeExpired(repositories), sso.attempts.purgeExpired(new Date()), twoFactor.purge(new Date())]).catch(
      (error: unknown) => logger.warn({ err: error }, 'could not purge expired sessions and links'),
    );
  }, PURGE_INTERVAL_MS);
  sweeper.unref();
  return {
    ...http,
    connection,
    close: async (timeoutMs) => {
      clearInterval(sweeper);
      await http.close(timeoutMs);
      await apollo.stop();
      await connection.close();
    },
  };
}

/** The service's resolvers with its features' fields added to the root types. */
function withFeatures(base: Resolvers, ...features: Array<Pick<Resolvers, 'Query' | 'Mutation'>>): Resolvers {
  return features.reduce<Resolvers>(
    (all, feature) => ({
      ...all,
      Query: { ...all.Query, ...feature.Query },
      Mutation: { ...all.Mutation, ...feature.Mutation },
    }),
    base,
  );
}

/** The identity service is reached only through the gateway, which appends the client's address. */
function clientAddress(headers: IncomingHttpHeaders, remoteAddress: string): string {
  const header = headers['x-forwarded-for'];
  const forwarded = Array.isArray(header) ? header[0] : header;
  return forwarded?.split(',').pop()?.trim() || remoteAddress;
}
