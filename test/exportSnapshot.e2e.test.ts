import { gunzipSync } from 'node:zlib';
import type { Types } from 'mongoose';
import { createLogger, type ExportSource } from '@fi/shared';
import {
  directoryTombstones,
  ExportJobStore,
  ExportWorker,
  type Connection,
  type ExportConfig,
} from '@fi/shared/database';
import { contactsExportSource, createContactRepository } from '@fi/contacts';
import { feedbackExportSource, feedbackImporter, FeedbackTombstones } from '@fi/feedback';
import { ADMIN, memberPrincipal, serviceAdmin } from './helpers/admin';
import { ndjsonRows } from './helpers/exports';
import { insertContacts } from './helpers/fixtures';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/**
 * The export's promise under concurrent writes, with the interleaving fixed: a probe wraps the real
 * source (same database, same removal log the service writes) and, right after a chosen page is read,
 * removes records ahead of and behind the cursor and adds new ones through the API.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const CONFIG: ExportConfig = {
  exportPublicUrl: 'https://api.example.test',
  exportRetentionHours: 1,
  exportConcurrency: 1,
  exportMaxPending: 5,
  exportPageSize: 10,
  exportLeaseMs: 5_000,
  exportPollMs: 100,
  mongodbMaxTimeMs: 8_000,
  changesClockMarginMs: 2_000,
};

async function seed(orgId: string, count: number): Promise<Array<{ id: string; source: string }>> {
  const connection = await stack.connect('feedback');
  const base = Date.now() - 60_000;
  await (
    await feedbackImporter(connection, () => undefined)
  )(
    orgId,
    Array.from({ length: count }, (_, i) => ({
      source: i % 2 ? 'api' : 'zendesk',
      title: `Item ${i}`,
      content: 'content',
      status: 'unread',
      publishedDate: new Date(base + i),
      createdAt: new Date(base + i),
    })),
  );
  const docs = await connection
    .collection('feedback_items')
    .find({ orgId })
    .sort({ _id: 1 })
    .project({ _id: 1, source: 1 })
    .toArray();
  return docs.map((doc) => ({ id: (doc._id as Types.ObjectId).toHexString(), source: doc.source as string }));
}

const feedbackSource = (connection: Connection) =>
  feedbackExportSource(connection, new FeedbackTombstones(connection)) as unknown as ExportSource;

async function runProbe(
  orgId: string,
  filter: Record<string, unknown>,
  afterPage: (page: number) => Promise<void>,
  database: 'feedback' | 'contacts' = 'feedback',
  sourceOf: (connection: Connection) => ExportSource = feedbackSource,
): Promise<string[]> {
  const connection = await stack.connect(database);
  const store = new ExportJobStore(connection);
  const real = sourceOf(connection);
  // Its own resource name: the stack's feedback worker leaves this job alone. Each page is a fresh query
  // (what MongoDB's cursor sees of concurrent removals), followed by the test's writes.
  const probe: ExportSource = {
    ...real,
    resource: `${database}-probe`,
    async *scan(orgId, stored, after, bound, snapshotAt, batchSize) {
      let from = after;
      for (let page = 0; ; page += 1) {
        const records = [];
        for await (const record of real.scan(orgId, stored, from, bound, snapshotAt, batchSize)) {
          records.push(record);
          if (records.length === batchSize) break;
        }
        yield* records;
        if (records.length < batchSize) return;
        from = records[records.length - 1]._id;
        await afterPage(page);
      }
    },
  };
  const job = await store.create({
    orgId,
    resource: `${database}-probe`,
    format: 'ndjson',
    filter: real.parseFilter(filter),
    status: 'queued',
    secret: 's',
    count: 0,
    chunks: 0,
    bytes: 0,
    attempts: 0,
    createdAt: new Date(),
  });
  const worker = new ExportWorker(store, probe, CONFIG, createLogger('test', 'silent'));
  worker.start();
  try {
    await eventually(async () => (await store.get(job._id))?.status === 'done', 60_000, 'the probe export');
  } finally {
    await worker.close();
  }
  const done = (await store.get(job._id))!;
  const parts = [];
  for (let n = 0; n < done.chunks; n += 1) parts.push((await store.readChunk(job._id, n))!);
  const ids = ndjsonRows(gunzipSync(Buffer.concat(parts)).toString('utf8')).map((row) => row.id as string);
  expect(done.count).toBe(ids.length);
  return ids;
}

test('when items are removed ahead of and behind the cursor and others are added during an export, then every item of the start is in the file exactly once and no new one', async () => {
  const { key, orgId } = await stack.createKey();
  const items = await seed(orgId, 60);
  const ids = items.map((item) => item.id);
  const added: string[] = [];
  const remove = async (id: string) => {
    const answer = await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id });
    expect(answer.body.data).toEqual({ removeFeedbackItem: true });
  };

  const exported = await runProbe(orgId, {}, async (page) => {
    if (page !== 1) return;
    // Ahead: in later pages, one of them the snapshot's newest item; behind: written already.
    for (const id of [ids[25], ids[40], ids[59], ids[3], ids[12]]) await remove(id);
    for (let i = 0; i < 4; i += 1) {
      const answer = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
        apiKey: key,
        input: { source: 'api', title: `New ${i}`, content: 'x' },
      });
      added.push(answer.body.data!.addFeedbackItem.id);
    }
  });

  expect(exported).toHaveLength(60);
  expect(new Set(exported).size).toBe(60);
  expect([...exported].sort()).toEqual([...ids].sort());
  for (const id of added) expect(exported).not.toContain(id);
});

test('when a filter is given and items are removed during the export, then removed items count only where they matched', async () => {
  const { key, orgId } = await stack.createKey();
  const items = await seed(orgId, 40);
  const api = items.filter((item) => item.source === 'api').map((item) => item.id);
  const zendesk = items.filter((item) => item.source === 'zendesk').map((item) => item.id);

  const exported = await runProbe(orgId, { source: 'api' }, async (page) => {
    if (page !== 0) return;
    for (const id of [api[15], api[19], zendesk[18]]) await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id });
  });

  expect([...exported].sort()).toEqual([...api].sort());
});

test('when an item was removed before the export started, then it is not in the file', async () => {
  const { key, orgId } = await stack.createKey();
  const items = await seed(orgId, 12);
  await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: items[11].id });
  await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: items[4].id });

  const exported = await runProbe(orgId, {}, async () => undefined);

  expect([...exported].sort()).toEqual(
    items
      .filter((_, i) => i !== 11 && i !== 4)
      .map((item) => item.id)
      .sort(),
  );
});

test('when contacts are deleted ahead of and behind the cursor and others are created during an export, then every contact of the start is in the file exactly once and no new one', async () => {
  const { orgId } = await stack.createKey();
  await insertContacts(
    stack,
    orgId,
    Array.from({ length: 40 }, (_, i) => ({
      name: `Contact ${i}`,
      company: i % 2 ? 'Odd' : 'Even',
      createdAt: new Date(Date.now() - 60_000 + i),
    })),
  );
  const contacts = await createContactRepository(await stack.connect('contacts')).search(orgId, null, {
    skip: 0,
    take: 100,
  });
  const ids = contacts.items.map((contact) => contact.id).sort();
  const owner = [memberPrincipal(orgId, 'owner')];
  const admin = (query: string, variables: Record<string, unknown>) =>
    serviceAdmin(stack.subgraphs.contacts.url, owner, query, variables);
  const added: string[] = [];

  const exported = await runProbe(
    orgId,
    { search: 'odd' },
    async (page) => {
      if (page !== 0) return;
      // Ahead (one of them the snapshot's newest), behind, and one the filter never matched.
      for (const id of [ids[25], ids[39], ids[3], ids[30]])
        expect((await admin(ADMIN.deleteContact, { id })).errors).toBeUndefined();
      const answer = await admin(ADMIN.createContact, { input: { name: 'New', company: 'Odd' } });
      added.push((answer.data as { createContact: { id: string } }).createContact.id);
    },
    'contacts',
    (connection) =>
      contactsExportSource({
        repository: createContactRepository(connection),
        tombstones: directoryTombstones(connection, 'contacts'),
      }),
  );

  const odd = contacts.items
    .filter((contact) => contact.company === 'Odd')
    .map((contact) => contact.id)
    .sort();
  expect([...exported].sort()).toEqual(odd);
  expect(new Set(exported).size).toBe(exported.length);
  for (const id of added) expect(exported).not.toContain(id);
});
