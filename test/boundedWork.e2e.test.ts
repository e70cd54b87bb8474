import { createContactRepository, loadContactsConfig, startContactsService } from '@fi/contacts';
import { loadGatewayConfig, startGateway } from '@fi/gateway';
import { createLogger, type RunningHttpServer } from '@fi/shared';
import { type Connection, connectMongo } from '@fi/shared/database';
import { insertAccounts } from './helpers/fixtures';
import { LIST_ACCOUNTS, LIST_CONTACTS } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { CLI_MAX_TIME_MS } from '@fi/cli';

/**
 * Bounded database work (issue 11): a text argument cannot hand the database an unbounded pattern, and
 * a query that runs too long is stopped by the database itself and answered with QUERY_TIMEOUT.
 */

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

describe('the attack of issue 11: contactItems(search: <100,000 letters>)', () => {
  let stack: Stack;
  let attackerKey: string;
  let tenantKey: string;
  beforeAll(async () => {
    stack = await startStack();
    ({ key: attackerKey } = await stack.createKey());
    const tenant = await stack.createKey();
    tenantKey = tenant.key;
    await insertAccounts(
      stack,
      tenant.orgId,
      Array.from({ length: 30 }, (_, i) => ({ name: `Account ${i}`, domain: `a${i}.example.com` })),
    );
  });
  afterAll(() => stack.close());

  const attack = () => stack.gql(LIST_CONTACTS, { apiKey: attackerKey, search: 'a'.repeat(100_000) });
  const tenantRequest = async () => {
    const response = await stack.gql<{ accountItems: { total: number } }>(LIST_ACCOUNTS, {
      apiKey: tenantKey,
      take: 10,
    });
    expect(response.body.data?.accountItems.total).toBe(30);
  };

  test('when the search is 100,000 letters, then BAD_REQUEST names the argument and its maximum', async () => {
    const response = await attack();
    expect(response.status).toBe(200);
    expect(response.body.data?.contactItems ?? null).toBeNull();
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: 'search must be at most 200 characters (got 100000)',
        extensions: expect.objectContaining({ code: 'BAD_REQUEST', argument: 'search', max: 200 }),
      }),
    ]);
  });

  test('when a search is at its maximum, then it is answered', async () => {
    const response = await stack.gql<{ contactItems: { total: number } }>(LIST_CONTACTS, {
      apiKey: attackerKey,
      search: 'a'.repeat(200),
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.contactItems.total).toBe(0);
  });

  test("when six such requests arrive at once, again and again, then another tenant's median latency stays within 2x of idle", async () => {
    // Idle and attacked samples alternate in rounds, so a change in the machine's own load (other test
    // workers, other processes) affects both sides alike; medians ignore the odd slow sample. Ten rounds
    // (40 samples a side): with five, a CI run beside other suites once measured 50 ms against a bound of
    // 48 ms, where the attack this guards against costs seconds a request.
    const idle: number[] = [];
    const attacked: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      for (let i = 0; i < 4; i += 1) idle.push(await timed(tenantRequest));
      const volley = Array.from({ length: 6 }, attack);
      for (let i = 0; i < 4; i += 1) attacked.push(await timed(tenantRequest));
      for (const response of await Promise.all(volley))
        expect(response.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    }
    // A floor of 25 ms: at a few milliseconds, scheduling noise alone can double a median.
    expect(median(attacked)).toBeLessThanOrEqual(Math.max(2 * median(idle), median(idle) + 25));
  });
});

describe('a genuinely slow query', () => {
  const MAX_TIME_MS = 250;
  // Its own database, so the many contacts it needs slow no other test's scans.
  const dbName = ownDatabaseName('bounded_work');
  let stack: Stack;
  let database: Connection;
  let contacts: RunningHttpServer;
  let gateway: RunningHttpServer;
  let key: string;
  beforeAll(async () => {
    stack = await startStack();
    // Only this contacts service has the short limit (everything else starts with the default, so a
    // loaded machine cannot fail the start-up); a gateway of its own routes contactItems to it.
    const logger = createLogger('test', 'silent');
    const env = { MONGODB_URI: stack.mongodbUri, PORT: '0', AUTH_CACHE_TTL_MS: '600000', ...stack.identityEnv };
    contacts = await startContactsService(
      loadContactsConfig({ ...env, MONGODB_DB: dbName, MONGODB_MAX_TIME_MS: String(MAX_TIME_MS) }),
      logger,
    );
    gateway = await startGateway(
      loadGatewayConfig({
        ...env,
        FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
        CONTACTS_URL: `${contacts.url}/graphql`,
        ACCOUNTS_URL: `${stack.subgraphs.accounts.url}/graphql`,
        INTEGRATIONS_URL: `${stack.subgraphs.integrations.url}/graphql`,
      }),
      logger,
    );
    // The CLI's time limit: 30,000 contacts are written through it on a machine that may be busy.
    database = await connectMongo(stack.mongodbUri, dbName, { maxTimeMs: CLI_MAX_TIME_MS });
    const created = await stack.createKey();
    key = created.key;
    // Enough contacts that a search over name, email and company scans far longer than the limit here.
    const repository = createContactRepository(database);
    for (let batch = 0; batch < 6; batch += 1) {
      await repository.insertMany(
        created.orgId,
        Array.from({ length: 5_000 }, (_, i) => ({
          name: `Contact ${batch}-${i} with a fairly long name to compare against`,
          email: `contact${batch}-${i}@example.com`,
          company: `Company ${i % 100}`,
          tags: [],
          createdAt: new Date(),
        })),
      );
    }
    // The key's first verification in the contacts service is itself bounded by the short limit; once
    // verified it is cached.
    const deadline = Date.now() + 120_000;
    while ((await lookUpNothing()).body.errors?.[0].extensions?.code !== 'NOT_FOUND') {
      if (Date.now() > deadline) throw new Error('the key could not be verified within the short time limit');
    }
  });
  // A lone _id filter: every server answers it from the primary key, well within the limit.
  const viaGateway = (query: string, variables: Record<string, unknown>) =>
    stack.gql(query, variables, { url: `${gateway.url}/graphql` });
  const lookUpNothing = () =>
    viaGateway(`query($k: String!) { contactItem(apiKey: $k, id: "${'0'.repeat(24)}") { id } }`, { k: key });

  afterAll(async () => {
    // Guarded: a failed beforeAll leaves some of these unset, and its own error is the one to read.
    await database?.dropDatabase().catch(() => undefined);
    await database?.close();
    await gateway?.close(1_000);
    await contacts?.close(1_000);
    await stack.close();
  });

  test('when a query takes longer than MONGODB_MAX_TIME_MS, then the database stops it and the client gets QUERY_TIMEOUT naming the limit, not SERVICE_UNAVAILABLE', async () => {
    const started = performance.now();
    const response = await viaGateway(LIST_CONTACTS, {
      apiKey: key,
      search: 'no contact has this in its name, email or company',
    });
    const elapsed = performance.now() - started;

    expect(response.status).toBe(200);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: `The query took longer than ${MAX_TIME_MS} ms and was stopped; narrow it (a shorter search, more filters, a smaller page) or retry later`,
        path: ['contactItems'],
        extensions: expect.objectContaining({ code: 'QUERY_TIMEOUT', maxTimeMs: MAX_TIME_MS }),
      }),
    ]);
    // Stopped at the database's limit, long before the gateway's 10 s subgraph timeout.
    expect(elapsed).toBeLessThan(5_000);
  });
});
