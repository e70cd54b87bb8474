import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from '@fi/shared';
import { openDatabases } from '../databases';
import { startEmbeddedDatabase } from '../embedded/embeddedDatabase';
import type { EmbeddedMongo } from '../embedded/ferretdb';
import { requireFreePorts } from '../embedded/freePort';
import { consoleOutput as out } from '../output';
import { buildDashboardIfStale } from './dashboardBuild';
import { curlExample, DEMO_ORG, ensureDemo } from './demo';
import { developmentSsoEnv } from './developmentSso';
import { developmentIntegrationsEnv, developmentWebhookEnv } from './developmentWebhooks';
import { spawnService, waitUntilReady } from './serviceProcess';
import { SupervisedService, type SupervisorEvents } from './supervisor';
import { loadStackConfig } from './stackConfig';
import { DATA_DIR, readRunningStack, removeStackFile, writeStackFile } from './stackFile';

const READY_TIMEOUT_MS = 60_000;
/**
 * The workers' CPU priority under `npm start` (unless WORKER_NICE is set): one machine runs the API and its
 * background work, so a large import's passes leave the CPU to requests first (docs/scale.md, measured).
 */
const STACK_WORKER_NICE = 10;

/** Development only (`npm start`); production sets its own TWO_FACTOR_SECRET_KEY. */
const DEVELOPMENT_TWO_FACTOR_SECRET_KEY = '2fa0de7e2fa0de7e2fa0de7e2fa0de7e2fa0de7e2fa0de7e2fa0de7e2fa0de7e';

/**
 * `npm start`: the whole stack on one machine with nothing installed. Each service runs as its own
 * process, as in production; with MONGODB_URI unset they share an embedded database, seeded once.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const config = loadStackConfig();
  const logDir = path.join(DATA_DIR, 'logs');
  let database: (EmbeddedMongo & { kind: string }) | null = null;
  const services: SupervisedService[] = [];
  let stopping = false;

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    out.info('Stopping...');
    await Promise.all(services.map((service) => service.stop()));
    await database?.stop();
    if (readRunningStack()?.pid === process.pid) removeStackFile();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    const running = readRunningStack();
    if (running) throw new Error(`the stack is already running (pid ${running.pid}, ${running.gatewayUrl})`);
    await requireFreePorts({
      gateway: config.gatewayPort,
      'feedback subgraph': config.feedbackPort,
      'contacts subgraph': config.contactsPort,
      'accounts subgraph': config.accountsPort,
      'identity service': config.identityPort,
      'feedback worker': config.feedbackWorkerPort,
      'integrations subgraph': config.integrationsPort,
      'integrations receiver': config.integrationsReceiverPort,
      'integrations worker': config.integrationsWorkerPort,
      'inbound mail': config.inboundSmtpPort,
      ...(config.mongodbUri ? {} : { 'embedded database': config.embeddedDbPort }),
    });
    const dashboardDir = await buildDashboardIfStale(out.info);
    if (!config.mongodbUri) database = await startEmbeddedDatabase(DATA_DIR, config.embeddedDbPort, out.info);
    const mongodbUri = config.mongodbUri || (database as EmbeddedMongo).uri;
    // One signing key for this run unless configured: every process of the stack gets the same.
    const signingKeys =
      config.identitySigningKeys || `dev${Date.now().toString(36)}:${randomBytes(32).toString('base64url')}`;
    // Links people open (export downloads, invitations, password resets) point at this stack's gateway,
    // whatever its port, unless an operator names a public origin.
    const gatewayOrigin = `http://localhost:${config.gatewayPort}`;
    const common = {
      MONGODB_URI: mongodbUri,
      IDENTITY_SIGNING_KEYS: signingKeys,
      ...(config.redisUrl ? { REDIS_URL: config.redisUrl } : {}),
      EXPORT_PUBLIC_URL: process.env.EXPORT_PUBLIC_URL || gatewayOrigin,
    };
    const subgraphs = [
      ['feedback', config.feedbackPort, config.feedbackMongodbUri],
      ['contacts', config.contactsPort, config.contactsMongodbUri],
      ['accounts', config.accountsPort, config.accountsMongodbUri],
    ] as const;
    const logOf = (name: string) => path.join(logDir, `${name}.log`);
    const restartPolicy = config.restartPolicy;
    // A crashed service is restarted while the others keep serving (the gateway answers their parts
    // meanwhile); only a service that keeps crashing stops the stack.
    const events: SupervisorEvents = {
      restarting: (name, code, signal, delayMs, crashes) =>
        out.info(
          `${name} stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); restarting it in ${delayMs / 1000} s (crash ${crashes} of ${restartPolicy.maxCrashes} allowed in ${restartPolicy.windowMs / 1000} s); see ${logOf(name)}`,
        ),
      restarted: (name, pid) => out.info(`${name} restarted (pid ${pid}).`),
      gaveUp: (name, crashes) => {
        out.info(
          `${name} crashed ${crashes} ${crashes === 1 ? 'time' : 'times'} within ${restartPolicy.windowMs / 1000} s; giving up and stopping the stack. See ${logOf(name)}`,
        );
        void stop(1);
      },
    };
    const supervise = (name: string, entry: string, port: number, env: NodeJS.ProcessEnv) =>
      new SupervisedService(() => spawnService(name, entry, port, env, logDir), events, restartPolicy);
    const feedbackEnv = {
      ...common,
      ...(config.feedbackMongodbUri ? { MONGODB_URI: config.feedbackMongodbUri } : {}),
      ...developmentWebhookEnv(),
    };
    for (const [name, port, uri] of subgraphs) {
      const env = name === 'feedback' ? feedbackEnv : { ...common, ...(uri ? { MONGODB_URI: uri } : {}) };
      services.push(supervise(name, `services/${name}/src/main.ts`, port, env));
    }
    // Development over plain HTTP: a Secure cookie would never be sent back.
    const identityEnv = {
      ...common,
      ...(config.identityMongodbUri ? { MONGODB_URI: config.identityMongodbUri } : {}),
      COOKIE_SECURE: process.env.COOKIE_SECURE ?? 'false',
      PUBLIC_URL: process.env.PUBLIC_URL || gatewayOrigin,
      ...developmentSsoEnv(),
      // A fixed development key seals the TOTP secrets, so two-factor set up once keeps working across runs.
      TWO_FACTOR_SECRET_KEY: process.env.TWO_FACTOR_SECRET_KEY || DEVELOPMENT_TWO_FACTOR_SECRET_KEY,
    };
    services.push(supervise('identity', 'services/identity/src/main.ts', config.identityPort, identityEnv));
    const subgraphUrls = {
      feedback: `${services[0].current.url}/graphql`,
      contacts: `${services[1].current.url}/graphql`,
      accounts: `${services[2].current.url}/graphql`,
    };
    const identityUrl = services[3].current.url;
    // The integrations service makes items and records through the other services' own APIs.
    const serviceUrls = {
      FEEDBACK_URL: subgraphUrls.feedback,
      CONTACTS_URL: subgraphUrls.contacts,
      ACCOUNTS_URL: subgraphUrls.accounts,
    };
    const hooksOrigin = `http://localhost:${config.integrationsReceiverPort}`;
    const integrationsEnv = {
      ...common,
      ...(config.integrationsMongodbUri ? { MONGODB_URI: config.integrationsMongodbUri } : {}),
      ...serviceUrls,
      ...developmentIntegrationsEnv(),
      IDENTITY_URL: identityUrl,
      INTEGRATIONS_PUBLIC_URL: process.env.INTEGRATIONS_PUBLIC_URL || hooksOrigin,
      INBOUND_SMTP_PORT: String(config.inboundSmtpPort),
    };
    const integrations = supervise(
      'integrations',
      'services/integrations/src/main.ts',
      config.integrationsPort,
      integrationsEnv,
    );
    services.push(integrations);
    const gatewayEnv = {
      ...common,
      ...serviceUrls,
      INTEGRATIONS_URL: graphqlUrlOf(integrations),
      IDENTITY_URL: identityUrl,
      DASHBOARD_DIR: dashboardDir,
    };
    const gateway = supervise('gateway', 'gateway/src/main.ts', config.gatewayPort, gatewayEnv);
    services.push(gateway);

    const demo = database
      ? await withDatabases(mongodbUri, (db) => ensureDemo(db, out, { ...process.env, MONGODB_URI: mongodbUri }))
      : null;
    await Promise.all(services.map((service) => waitUntilReady(service.current, READY_TIMEOUT_MS)));
    // The feedback service's background work runs in a process of its own, as in production: the API
    // keeps serving while it is down, and it finds what was left for it once it is back. It starts once
    // the services are ready: it does not build the feedback database's indexes beside the API, nor
    // compile beside them (six processes starting at once took over a minute on a busy 2-core machine).
    // Alerts and digests: who opted in is the identity service's to say; without SMTP_URL their mails are
    // written under .data/mail/ (the worker's links point at this stack's web application).
    // Everything here shares one machine: the workers stand back for the API's requests (WORKER_NICE).
    const workerNice = process.env.WORKER_NICE || String(STACK_WORKER_NICE);
    const worker = supervise('feedback-worker', 'services/feedback/src/worker.ts', config.feedbackWorkerPort, {
      ...feedbackEnv,
      WORKER_NICE: workerNice,
      IDENTITY_URL: identityUrl,
      INTEGRATIONS_URL: integrations.current.url,
      PUBLIC_URL: process.env.PUBLIC_URL || gatewayOrigin,
      MAIL_DIR: process.env.MAIL_DIR || path.join(DATA_DIR, 'mail'),
    });
    // The integrations service's receiver (what platforms reach) and worker (which makes the items) start
    // then too, for the same reason.
    const receiver = supervise(
      'integrations-receiver',
      'services/integrations/src/receiverMain.ts',
      config.integrationsReceiverPort,
      integrationsEnv,
    );
    const integrationsWorker = supervise(
      'integrations-worker',
      'services/integrations/src/worker.ts',
      config.integrationsWorkerPort,
      { ...integrationsEnv, WORKER_NICE: workerNice },
    );
    services.push(worker, receiver, integrationsWorker);
    await Promise.all(
      [worker, receiver, integrationsWorker].map((started) => waitUntilReady(started.current, READY_TIMEOUT_MS)),
    );
    const gatewayUrl = `${gateway.current.url}/graphql`;
    const allSubgraphUrls = { ...subgraphUrls, integrations: graphqlUrlOf(integrations) };
    writeStackFile({
      pid: process.pid,
      mongodbUri,
      redisUrl: config.redisUrl || undefined,
      gatewayUrl,
      subgraphUrls: allSubgraphUrls,
    });

    out.info(`
Feedback Intelligence API is up (${((Date.now() - started) / 1000).toFixed(1)} s).
  Dashboard: ${gateway.current.url}/
  GraphQL:   ${gatewayUrl}  (POST only)
  Admin API: ${gateway.current.url}/admin/graphql  (session cookie; see docs/identity.md)
  Subgraphs: ${Object.values(allSubgraphUrls).join('  ')}  Identity: ${identityUrl}
  Worker:    feedback-worker (pid ${worker.current.child.pid}): background work; health and metrics on ${worker.current.url}
  Worker:    integrations-worker (pid ${integrationsWorker.current.child.pid}): items of connected platforms; health and metrics on ${integrationsWorker.current.url}
  Hooks:     ${integrationsEnv.INTEGRATIONS_PUBLIC_URL}/hooks/<token>  (integrations-receiver, pid ${receiver.current.child.pid}; connections: npm run cli -- integrations --help)
  Inbound mail: smtp://localhost:${config.inboundSmtpPort}  (email connections: feedback+<token>@${process.env.INBOUND_MAIL_DOMAIN || 'localhost'})
  Database:  ${database ? `${database.kind} at ${mongodbUri} (data in ${DATA_DIR})` : mongodbUri.replace(/\/\/[^@/]*@/, '//***@')}
  Logs:      ${logDir}/*.log
  CLI:       npm run cli -- --help
${demo?.key ? `\nDemo organization "${DEMO_ORG}", key ${demo.key}\nTry it:\n  ${curlExample(gatewayUrl, demo.key)}\n` : ''}${demo?.owner ? `Sign in: ${demo.owner.email} / ${demo.owner.password}\n` : ''}
Press Ctrl-C to stop.`);
  } catch (error) {
    out.info(error instanceof ConfigError ? error.message : `Could not start: ${(error as Error).message}`);
    await stop(1);
  }
}

const graphqlUrlOf = (service: SupervisedService) => `${service.current.url}/graphql`;

async function withDatabases<T>(
  mongodbUri: string,
  use: (db: Awaited<ReturnType<typeof openDatabases>>) => Promise<T>,
): Promise<T> {
  const db = await openDatabases({ ...process.env, MONGODB_URI: mongodbUri });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

void main();
