import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo } from '@fi/shared/database';
import {
  LeaseStore,
  PullSync,
  PullWorker,
  SyncStateStore,
  zendeskConnector,
  type PullConnection,
  type SyncOutcome,
} from '../src/pull';
import { eventually } from '../../../test/helpers/processes';
import { PulledRecords } from '../../../test/helpers/pulledRecords';
import { ZendeskServer } from '../../../test/helpers/zendeskServer';

const DAY = 86_400_000;
const OPTIONS = { leaseMs: 2_000, intervalMs: 60_000, failureBackoffMs: 1_000 };

function zendeskConnection(orgId: string, subdomain: string, token: string): PullConnection {
  return {
    id: `zd-${orgId}-${randomBytes(4).toString('hex')}`,
    orgId,
    kind: 'zendesk',
    subdomain,
    token,
    backfillDays: 30,
  };
}

describe('pulling tickets from Zendesk', () => {
  let db: Connection;
  let zendesk: ZendeskServer;
  let records: PulledRecords;
  let states: SyncStateStore;
  let leases: LeaseStore;
  const dbName = `test_pull_${randomBytes(4).toString('hex')}`;
  const syncOf = (pageSize: number) =>
    new PullSync(
      leases,
      states,
      { zendesk: zendeskConnector({ baseUrl: zendesk.baseUrl, pageSize, timeoutMs: 10_000 }) },
      records,
      OPTIONS,
    );

  beforeAll(async () => {
    db = await connectMongo(process.env.MONGODB_URI as string, dbName);
    zendesk = await ZendeskServer.start();
    records = new PulledRecords(db);
    states = new SyncStateStore(db);
    leases = new LeaseStore(db);
    await Promise.all([states.ensureIndexes(), leases.ensureIndexes()]);
  });
  afterAll(async () => {
    await zendesk.close();
    await db.dropDatabase();
    await db.close();
  });

  test('when a connection syncs for the first time, then it backfills its window page by page and saves the cursor', async () => {
    const org = `org-backfill-${randomBytes(3).toString('hex')}`;
    zendesk.account(org, 'token-a');
    zendesk.addTickets(org, 5, new Date(Date.now() - 40 * DAY)); // before the 30-day window
    const recent = zendesk.addTickets(org, 25, new Date(Date.now() - 2 * DAY));
    const connection = zendeskConnection(org, org, 'token-a');

    expect(await syncOf(10).run(connection)).toBe('caught-up');

    const stored = await records.of(org);
    expect(stored.map((item) => item.externalId).sort()).toEqual(recent.map((ticket) => String(ticket.id)).sort());
    expect(stored[0]).toMatchObject({ email: expect.stringMatching(/@/) });
    const requests = zendesk.requestsOf(org);
    const windowStart = Number(requests[0].query.start_time) * 1000;
    expect(Math.abs(windowStart - (Date.now() - 30 * DAY))).toBeLessThan(60_000);
    expect(requests.slice(1).every((request) => request.query.cursor)).toBe(true);
    const state = await states.get(connection.id, org);
    expect(state).toMatchObject({ records: 25, pages: 3, lastError: null });

    // Caught up: not synced again before the interval; the next sync continues from the saved cursor.
    expect(await syncOf(10).run(connection)).toBe('not-due');
    const later = zendesk.addTickets(org, 3, new Date(Date.now() - 60_000));
    const next = new PullSync(
      leases,
      states,
      { zendesk: zendeskConnector({ baseUrl: zendesk.baseUrl, pageSize: 10, timeoutMs: 10_000 }) },
      records,
      { ...OPTIONS, intervalMs: 0 },
    );
    expect(await next.run(connection)).toBe('caught-up');
    expect(zendesk.requestsOf(org)[requests.length].query.cursor).toBe(state.cursor);
    expect(await records.count(org)).toBe(recent.length + later.length);
  });

  test('when Zendesk answers 429 with Retry-After, then nobody calls it before that time, and the sync then resumes from the cursor', async () => {
    const org = `org-429-${randomBytes(3).toString('hex')}`;
    zendesk.account(org, 'token-b');
    zendesk.addTickets(org, 20, new Date(Date.now() - DAY));
    const connection = zendeskConnection(org, org, 'token-b');
    const sync = syncOf(10);
    // The second page is refused: the first one's records and cursor stay.
    zendesk.rateLimit(org, [2], 1);
    expect(await sync.run(connection)).toBe('rate-limited');
    const limited = zendesk.requestsOf(org).find((request) => request.status === 429);
    expect(limited).toBeDefined();
    expect(await records.count(org)).toBe(10);

    // Another worker (another PullSync on the same database) honours it too.
    expect(await syncOf(10).run(connection)).toBe('not-due');
    let outcome: SyncOutcome = 'not-due';
    await eventually(
      async () => (outcome = await sync.run(connection)) !== 'not-due',
      10_000,
      'the Retry-After to pass',
    );
    expect(outcome).toBe('caught-up');
    const after = zendesk.requestsOf(org).filter((request) => request.at > (limited?.at ?? 0));
    expect(after[0].at - (limited?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
    expect(after[0].query.cursor).toBe(limited?.query.cursor);
    expect((await records.of(org)).every((item) => item.deliveries === 1)).toBe(true);
    expect(await records.count(org)).toBe(20);
  });

  test('when two organizations sync, then each gets only its own tickets, with its own token, and one rate-limited does not hold up the other', async () => {
    const [a, b] = ['iso-a', 'iso-b'].map((name) => `${name}-${randomBytes(3).toString('hex')}`);
    zendesk.account(a, 'token-of-a');
    zendesk.account(b, 'token-of-b');
    zendesk.addTickets(a, 12, new Date(Date.now() - DAY));
    zendesk.addTickets(b, 7, new Date(Date.now() - DAY));
    zendesk.rateLimit(a, [30]);
    const connections = [zendeskConnection(a, a, 'token-of-a'), zendeskConnection(b, b, 'token-of-b')];
    const outcomes = new Map<string, SyncOutcome>();
    const worker = new PullWorker(
      syncOf(5),
      { active: async () => connections },
      { pollMs: 100, concurrency: 2 },
      (error) => {
        throw error;
      },
      (connection, outcome) => outcomes.set(connection.orgId, outcome),
    );
    await worker.runOnce();
    expect(outcomes.get(a)).toBe('rate-limited');
    expect(outcomes.get(b)).toBe('caught-up');
    expect(await records.count(a)).toBe(0);
    expect((await records.of(b)).map((item) => item.email)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`@${b}\\.example$`))]),
    );
    expect((await records.of(b)).every((item) => item.email?.endsWith(`@${b}.example`))).toBe(true);
    expect(await records.count(b)).toBe(7);
    expect(zendesk.requestsOf(b).every((request) => request.authorization === 'Bearer token-of-b')).toBe(true);
    // A connection given another organization's token is refused by the platform and records why.
    const wrong = zendeskConnection(b, a, 'token-of-b');
    expect(await syncOf(5).run(wrong)).toBe('failed');
    expect((await states.get(wrong.id, b)).lastError).toBe('Zendesk answered 401: Unauthorized');
  });

  test('when several workers try to take one connection at once, then exactly one holds it', async () => {
    const id = `lease-${randomBytes(4).toString('hex')}`;
    const now = new Date();
    const holders = await Promise.all(Array.from({ length: 8 }, () => leases.take(id, now, 10_000)));
    expect(holders.filter(Boolean)).toHaveLength(1);
    const org = `org-busy-${randomBytes(3).toString('hex')}`;
    zendesk.account(org, 'token-c');
    const connection = { ...zendeskConnection(org, org, 'token-c'), id };
    expect(await syncOf(5).run(connection)).toBe('busy');
    expect(zendesk.requestsOf(org)).toHaveLength(0);
  });
});
