import { contactKeyBackfill } from '@fi/contacts';
import { runKeysetBackfill, type Connection } from '@fi/shared/database';
import { Types } from 'mongoose';
import { cli } from './helpers/cli';
import { insertContacts } from './helpers/fixtures';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

// Own databases: a run without --org backfills every organization in them, and no other test file's.
const DATABASES = {
  feedback: ownDatabaseName('backfill_feedback'),
  contacts: ownDatabaseName('backfill_contacts'),
  accounts: ownDatabaseName('backfill_accounts'),
};
const CLI_ENV = {
  FEEDBACK_MONGODB_DB: DATABASES.feedback,
  CONTACTS_MONGODB_DB: DATABASES.contacts,
  ACCOUNTS_MONGODB_DB: DATABASES.accounts,
};

let stack: Stack;
let db: Record<'feedback' | 'contacts' | 'accounts', Connection>;
const savedEnv: Record<string, string | undefined> = {};
beforeAll(async () => {
  stack = await startStack({}, { databases: DATABASES });
  db = {
    feedback: await stack.connect('feedback'),
    contacts: await stack.connect('contacts'),
    accounts: await stack.connect('accounts'),
  };
  for (const [name, value] of Object.entries(CLI_ENV)) {
    savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all(Object.values(db).map((connection) => connection.dropDatabase()));
  await stack.close();
});

const contacts = () => db.contacts.collection('contacts');
const accounts = () => db.accounts.collection('accounts');
const feedback = () => db.feedback.collection('feedback_items');

/** Records as a version before links stored them: no match keys (feedback had its lower-cased email). */
async function insertLegacy(
  orgId: string,
  records: { contacts?: object[]; accounts?: object[]; feedback?: Array<{ email?: string }> },
) {
  const createdAt = new Date();
  const ids = { contacts: [] as Types.ObjectId[], accounts: [] as Types.ObjectId[], feedback: [] as Types.ObjectId[] };
  if (records.contacts?.length) {
    const docs = records.contacts.map((contact) => ({
      _id: new Types.ObjectId(),
      orgId,
      tags: [],
      createdAt,
      ...contact,
    }));
    await contacts().insertMany(docs);
    ids.contacts = docs.map((doc) => doc._id);
  }
  if (records.accounts?.length) {
    const docs = records.accounts.map((account) => ({
      _id: new Types.ObjectId(),
      orgId,
      tags: [],
      createdAt,
      ...account,
    }));
    await accounts().insertMany(docs);
    ids.accounts = docs.map((doc) => doc._id);
  }
  if (records.feedback?.length) {
    const docs = records.feedback.map((item) => ({
      _id: new Types.ObjectId(),
      orgId,
      source: 'api',
      title: 'Legacy',
      content: 'Stored before links',
      status: 'unread',
      publishedDate: createdAt,
      createdAt,
      ...item,
      emailLower: item.email?.toLowerCase() ?? null,
    }));
    await feedback().insertMany(docs);
    ids.feedback = docs.map((doc) => doc._id);
  }
  return ids;
}

const LINKS = `query($k: String!) {
  feedbackItems(apiKey: $k) { items { id contact { id } } }
  contactItems(apiKey: $k) { items { id account { id } } }
  accountItems(apiKey: $k) { items { id contacts { total items { id } } feedbackSummary { total } } }
}`;

interface Links {
  feedbackItems: { items: Array<{ id: string; contact: { id: string } | null }> };
  contactItems: { items: Array<{ id: string; account: { id: string } | null }> };
  accountItems: {
    items: Array<{
      id: string;
      contacts: { total: number; items: Array<{ id: string }> };
      feedbackSummary: { total: number };
    }>;
  };
}

async function links(key: string): Promise<Links> {
  const response = await stack.gql<Links>(LINKS, { k: key });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!;
}

const byId = <T extends { id: string }>(items: T[], id: Types.ObjectId): T | undefined =>
  items.find((item) => item.id === id.toHexString());

async function backfill(...args: string[]) {
  const run = await cli('links', 'backfill', ...args);
  expect(run).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout[0]) as Record<
    'contacts' | 'accounts' | 'feedback',
    { total: number; written: number; skipped: number; complete: boolean }
  > & { complete: boolean };
}

const KEYS = { emailLower: null, emailDomain: null, companyKey: null };

describe('links backfill', () => {
  test('when records were stored before links, then they do not link until the backfill, and do after it', async () => {
    const { key, orgId } = await stack.createKey();
    const legacy = await insertLegacy(orgId, {
      contacts: [{ name: 'Ada', email: 'Ada@Acme.io', company: 'Acme' }, { name: 'Nobody' }],
      accounts: [{ name: 'Acme', domain: 'ACME.io' }],
      feedback: [{ email: 'ada@ACME.io' }],
    });
    const [ada, nobody] = legacy.contacts;
    const [acme] = legacy.accounts;
    const [item] = legacy.feedback;

    const before = await links(key);
    expect(byId(before.feedbackItems.items, item)?.contact).toBeNull();
    expect(byId(before.contactItems.items, ada)?.account).toBeNull();
    expect(byId(before.accountItems.items, acme)).toMatchObject({
      contacts: { total: 0 },
      feedbackSummary: { total: 0 },
    });

    const first = await backfill('--org', orgId, '--batch', '1');
    expect(first).toEqual({
      contacts: { total: 2, written: 2, skipped: 0, complete: true },
      accounts: { total: 1, written: 1, skipped: 0, complete: true },
      feedback: { total: 1, written: 1, skipped: 0, complete: true },
      complete: true,
    });

    const after = await links(key);
    expect(byId(after.feedbackItems.items, item)?.contact).toEqual({ id: ada.toHexString() });
    expect(byId(after.contactItems.items, ada)?.account).toEqual({ id: acme.toHexString() });
    expect(byId(after.accountItems.items, acme)).toEqual({
      id: acme.toHexString(),
      contacts: { total: 1, items: [{ id: ada.toHexString() }] },
      feedbackSummary: { total: 1 },
    });
    // The keys are exactly what an import stores: a contact with nothing to match gets nulls, not nothing.
    expect(await contacts().findOne({ _id: ada })).toMatchObject({
      emailLower: 'ada@acme.io',
      emailDomain: 'acme.io',
      companyKey: 'acme',
    });
    expect(await contacts().findOne({ _id: nobody })).toMatchObject(KEYS);
    expect(await accounts().findOne({ _id: acme })).toMatchObject({ domainKey: 'acme.io', nameKey: 'acme' });
    expect(await feedback().findOne({ _id: item })).toMatchObject({
      emailLower: 'ada@acme.io',
      emailDomain: 'acme.io',
    });

    const second = await backfill('--org', orgId);
    for (const service of ['contacts', 'accounts', 'feedback'] as const)
      expect(second[service]).toEqual({ total: 0, written: 0, skipped: 0, complete: true });
  });

  test('when a record has its keys, then the backfill leaves it as it is, whatever they say', async () => {
    const { orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [{ name: 'Imported', email: 'imported@acme.io' }]);
    const imported = await contacts().findOne({ orgId, name: 'Imported' });
    const {
      contacts: [odd],
    } = await insertLegacy(orgId, {
      contacts: [
        {
          name: 'Odd',
          email: 'odd@acme.io',
          emailLower: 'kept@elsewhere.example',
          emailDomain: null,
          companyKey: 'kept',
        },
      ],
    });
    const oddBefore = await contacts().findOne({ _id: odd });

    expect((await backfill('--org', orgId)).contacts).toEqual({ total: 0, written: 0, skipped: 0, complete: true });
    expect(await contacts().findOne({ _id: imported!._id })).toEqual(imported);
    expect(await contacts().findOne({ _id: odd })).toEqual(oddBefore);
  });

  test('when a backfill is stopped after a batch, then running it again finishes the rest', async () => {
    const { orgId } = await stack.createKey();
    await insertLegacy(orgId, {
      contacts: Array.from({ length: 5 }, (_, i) => ({ name: `P${i}`, email: `p${i}@firm.example` })),
    });

    const stop = new AbortController();
    const first = await runKeysetBackfill(contactKeyBackfill(db.contacts, orgId), {
      batchSize: 2,
      signal: stop.signal,
      onProgress: (done) => done >= 2 && stop.abort(),
    });
    expect(first).toEqual({ total: 5, written: 2, skipped: 0, complete: false });

    const rerun = await backfill('--org', orgId, '--batch', '2');
    expect(rerun.contacts).toEqual({ total: 3, written: 3, skipped: 0, complete: true });
    expect(await contacts().countDocuments({ orgId, emailDomain: 'firm.example' })).toBe(5);
  });

  test('when a key is written between the read and the write, then the backfill keeps it and fills in only the others', async () => {
    const { orgId } = await stack.createKey();
    const {
      contacts: [id],
    } = await insertLegacy(orgId, { contacts: [{ name: 'Raced', email: 'raced@acme.io', company: 'Acme' }] });
    const store = contactKeyBackfill(db.contacts, orgId);
    const read = await store.next(null, 10);
    await contacts().updateOne({ _id: id }, { $set: { emailLower: 'someone@else.example' } });

    expect(await store.write(read)).toBe(0);
    expect(await contacts().findOne({ _id: id })).not.toHaveProperty('emailDomain');

    expect((await backfill('--org', orgId)).contacts).toEqual({ total: 1, written: 1, skipped: 0, complete: true });
    expect(await contacts().findOne({ _id: id })).toMatchObject({
      emailLower: 'someone@else.example',
      emailDomain: 'acme.io',
      companyKey: 'acme',
    });
  });

  test('when --org is given, then only that organization changes; without it, every organization does', async () => {
    const one = await stack.createKey();
    const other = await stack.createKey();
    const records = {
      contacts: [{ name: 'Grace', email: 'grace@hopper.example' }],
      feedback: [{ email: 'grace@hopper.example' }],
    };
    const mine = await insertLegacy(one.orgId, records);
    const theirs = await insertLegacy(other.orgId, records);

    const scoped = await backfill('--org', one.orgId);
    expect(scoped.contacts.written).toBe(1);
    expect((await links(one.key)).feedbackItems.items).toEqual([
      { id: mine.feedback[0].toHexString(), contact: { id: mine.contacts[0].toHexString() } },
    ]);
    expect((await links(other.key)).feedbackItems.items).toEqual([
      { id: theirs.feedback[0].toHexString(), contact: null },
    ]);
    expect(await contacts().findOne({ _id: theirs.contacts[0] })).not.toHaveProperty('emailLower');
    expect(await feedback().findOne({ _id: theirs.feedback[0] })).not.toHaveProperty('emailDomain');

    const everywhere = await backfill();
    expect(everywhere.contacts.written).toBeGreaterThanOrEqual(1);
    expect((await links(other.key)).feedbackItems.items).toEqual([
      { id: theirs.feedback[0].toHexString(), contact: { id: theirs.contacts[0].toHexString() } },
    ]);
    const again = await backfill();
    for (const service of ['contacts', 'accounts', 'feedback'] as const)
      expect(again[service]).toMatchObject({ total: 0, written: 0 });
  });

  test('when the backfill is called wrongly, then exit code 2 names the problem', async () => {
    expect(await cli('links', 'rebuild')).toMatchObject({ code: 2, stderr: expect.stringContaining('backfill') });
    expect(await cli('links', 'backfill', '--batch', '0')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--batch'),
    });
    expect(await cli('links', 'backfill', '--org', '')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--org'),
    });
  });
});
