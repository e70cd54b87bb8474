import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo } from '@fi/shared/database';
import {
  hubspotConnector,
  LeaseStore,
  PullSync,
  SyncStateStore,
  type PullConnection,
  type PulledBatch,
  type PullSink,
  type SyncOutcome,
} from '../src/pull';
import { eventually } from '../../../test/helpers/processes';
import { HubSpotServer } from '../../../test/helpers/hubspotServer';

const DAY = 86_400_000;

/** Every batch the sync delivered, in order. */
class RecordingSink implements PullSink {
  readonly batches: PulledBatch[] = [];
  async deliver(_connection: PullConnection, batch: PulledBatch): Promise<void> {
    this.batches.push(batch);
  }
  get contacts() {
    return this.batches.flatMap((batch) => batch.contacts);
  }
  get accounts() {
    return this.batches.flatMap((batch) => batch.accounts);
  }
}

describe('pulling contacts and companies from HubSpot', () => {
  let db: Connection;
  let hubspot: HubSpotServer;
  let states: SyncStateStore;
  let leases: LeaseStore;
  const syncOf = (sink: PullSink, pageSize: number) =>
    new PullSync(
      leases,
      states,
      { hubspot: hubspotConnector({ baseUrl: hubspot.url, pageSize, timeoutMs: 10_000 }) },
      sink,
      { leaseMs: 5_000, intervalMs: 0, failureBackoffMs: 1_000 },
    );
  const connectionOf = (token: string): PullConnection => ({
    id: `hs-${randomBytes(4).toString('hex')}`,
    orgId: `org-${token}`,
    kind: 'hubspot',
    token,
    backfillDays: 30,
  });

  beforeAll(async () => {
    db = await connectMongo(process.env.MONGODB_URI as string, `test_hubspot_${randomBytes(4).toString('hex')}`);
    hubspot = await HubSpotServer.start();
    states = new SyncStateStore(db);
    leases = new LeaseStore(db);
  });
  afterAll(async () => {
    await hubspot.close();
    await db.dropDatabase();
    await db.close();
  });

  test('when a portal syncs, then companies come first, then contacts, within the backfill window; a later sync brings only what changed', async () => {
    const token = `pat-${randomBytes(4).toString('hex')}`;
    hubspot.portal(token);
    const base = Date.now() - 2 * DAY;
    hubspot.put(
      token,
      'companies',
      '1',
      { name: 'Acme', domain: 'ACME.example', website: 'https://acme.example' },
      new Date(base),
    );
    hubspot.put(token, 'companies', '2', { name: 'Old Co', domain: 'old.example' }, new Date(Date.now() - 60 * DAY));
    for (let n = 0; n < 25; n += 1)
      hubspot.put(
        token,
        'contacts',
        String(100 + n),
        {
          firstname: 'Jane',
          lastname: `Doe ${n}`,
          email: `Jane${n}@Acme.example`,
          company: 'Acme',
          jobtitle: 'CTO',
          city: 'Lyon',
          country: 'France',
        },
        new Date(base + n * 1000),
      );
    const connection = connectionOf(token);
    const sink = new RecordingSink();

    expect(await syncOf(sink, 10).run(connection)).toBe('caught-up');
    expect(sink.accounts).toEqual([
      { externalId: '1', name: 'Acme', domain: 'acme.example', description: null, website: 'https://acme.example' },
    ]);
    expect(sink.contacts).toHaveLength(25);
    expect(sink.contacts[0]).toEqual({
      externalId: '100',
      name: 'Jane Doe 0',
      email: 'jane0@acme.example',
      phone: null,
      company: 'Acme',
      title: 'CTO',
      location: 'Lyon, France',
    });
    const searches = hubspot.requests.filter((request) => request.authorization === `Bearer ${token}`);
    expect(searches.map((request) => request.objectType)).toEqual(['companies', 'contacts', 'contacts', 'contacts']);

    hubspot.put(token, 'contacts', '103', { jobtitle: 'CEO' }, new Date());
    const later = new RecordingSink();
    expect(await syncOf(later, 10).run(connection)).toBe('caught-up');
    // The changed contact, and the records at the newest date seen before (matched again, not duplicated).
    expect(later.contacts.map((contact) => contact.externalId)).toEqual(['124', '103']);
    expect(later.contacts[1].title).toBe('CEO');
    expect(later.accounts.map((account) => account.externalId)).toEqual(['1']);
  });

  test("when a search reaches HubSpot's 10,000-result window, then a new search starts from the newest date seen and nothing is missed", async () => {
    const token = `pat-${randomBytes(4).toString('hex')}`;
    hubspot.portal(token);
    const base = Date.now() - 20 * DAY;
    for (let n = 0; n < 10_050; n += 1)
      hubspot.put(token, 'contacts', String(n + 1), { email: `c${n}@big.example` }, new Date(base + n * 100));
    const sink = new RecordingSink();
    expect(await syncOf(sink, 200).run(connectionOf(token))).toBe('caught-up');
    const ids = new Set(sink.contacts.map((contact) => contact.externalId));
    expect(ids.size).toBe(10_050);
    expect(hubspot.requests.filter((request) => request.status === 400)).toHaveLength(0);
  });

  test('when HubSpot answers 429, then no worker calls it again before Retry-After has passed', async () => {
    const token = `pat-${randomBytes(4).toString('hex')}`;
    hubspot.portal(token);
    for (let n = 0; n < 5; n += 1)
      hubspot.put(
        token,
        'companies',
        String(n + 1),
        { name: `Co ${n}`, domain: `co${n}.example` },
        new Date(Date.now() - DAY + n),
      );
    hubspot.rateLimit(token, [1]);
    const connection = connectionOf(token);
    const sink = new RecordingSink();
    expect(await syncOf(sink, 2).run(connection)).toBe('rate-limited');
    const state = await states.get(connection.id, connection.orgId);
    expect(state.notBefore?.getTime()).toBeGreaterThan(Date.now());
    expect(await syncOf(sink, 2).run(connection)).toBe('not-due');
    let outcome: SyncOutcome = 'not-due';
    await eventually(
      async () => (outcome = await syncOf(sink, 2).run(connection)) !== 'not-due',
      10_000,
      'Retry-After',
    );
    expect(outcome).toBe('caught-up');
    const [limited, next] = hubspot.requests.filter((request) => request.authorization === `Bearer ${token}`);
    expect(limited.status).toBe(429);
    expect(next.at - limited.at).toBeGreaterThanOrEqual(1_000);
    expect(sink.accounts.map((account) => account.externalId)).toEqual(['1', '2', '3', '4', '5']);
  });
});
