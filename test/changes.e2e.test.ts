import { Types } from 'mongoose';
import { CHANGES_KEPT_MS, changesCursorAt, REMOVAL_GRACE_MS } from '@fi/shared';
import { directoryTombstones } from '@fi/shared/database';
import { FeedbackTombstones } from '@fi/feedback';
import { ADMIN, memberPrincipal, serviceAdmin } from './helpers/admin';
import { insertAccounts, insertContacts } from './helpers/fixtures';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, LIST_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/**
 * The feed lists a change once twice MONGODB_MAX_TIME_MS plus CHANGES_CLOCK_MARGIN_MS have passed since it was
 * stamped: short here, so tests wait seconds, not the production 18 s.
 */
const SETTLE_ENV = { MONGODB_MAX_TIME_MS: '4000', CHANGES_CLOCK_MARGIN_MS: '500' };
const SETTLE_WAIT_MS = 60_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(SETTLE_ENV);
});
afterAll(() => stack.close());

type Resource = 'feedback' | 'contacts' | 'accounts';
interface Change {
  type: string;
  id: string;
  at: string;
  item: { id: string; status?: string; name?: string } | null;
}
interface ChangePage {
  items: Change[];
  cursor: string;
  hasMore: boolean;
}

const ITEM_FIELDS: Record<Resource, string> = { feedback: 'id status title', contacts: 'id name', accounts: 'id name' };
const changesQuery = (resource: Resource) =>
  `query($k: String!, $after: String, $take: Int) { page: ${resource}Changes(apiKey: $k, after: $after, take: $take) { items { type id at item { ${ITEM_FIELDS[resource]} } } cursor hasMore } }`;
const UPDATE_STATUS = `mutation($k: String!, $id: String!, $status: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: $status) { id status } }`;

async function page(key: string, resource: Resource, after: string | null, take?: number) {
  return stack.gql<{ page: ChangePage }>(changesQuery(resource), {
    k: key,
    after,
    ...(take === undefined ? {} : { take }),
  });
}

/** Reads the feed from `after` to its end for now: every entry, and where it ended. */
async function readToEnd(key: string, resource: Resource, after: string | null = null, take?: number) {
  const entries: Change[] = [];
  let cursor = after;
  for (let pages = 0; pages < 1_000; pages += 1) {
    const answer = await page(key, resource, cursor, take);
    expect(answer.body.errors).toBeUndefined();
    const { items, cursor: next, hasMore } = answer.body.data!.page;
    expect(typeof next).toBe('string');
    entries.push(...items);
    cursor = next;
    if (!hasMore) return { entries, cursor: next };
  }
  throw new Error('the feed did not end within 1,000 pages');
}

/** Reads the feed from the start until `ready` holds for what it lists (the changes have settled). */
async function settledFeed(key: string, resource: Resource, ready: (entries: Change[]) => boolean, take?: number) {
  let read = { entries: [] as Change[], cursor: '' };
  await eventually(
    async () => ready((read = await readToEnd(key, resource, null, take)).entries),
    SETTLE_WAIT_MS,
    `the ${resource} changes to be listed`,
  );
  return read;
}

async function addItem(key: string, title: string): Promise<string> {
  const added = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
    apiKey: key,
    input: { source: 'api', title, content: `${title} text` },
  });
  expect(added.body.errors).toBeUndefined();
  return added.body.data!.addFeedbackItem.id;
}

describe('feedbackChanges', () => {
  test('when items are created, changed and removed, then each is listed once at its last change, oldest first, the removed one as deleted without an item', async () => {
    const { key } = await stack.createKey();
    const kept = await addItem(key, 'Kept');
    const changed = await addItem(key, 'Changed');
    const removed = await addItem(key, 'Removed');
    expect((await stack.gql(UPDATE_STATUS, { k: key, id: changed, status: 'read' })).body.errors).toBeUndefined();
    expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: removed })).body.errors).toBeUndefined();

    const { entries, cursor } = await settledFeed(key, 'feedback', (listed) =>
      listed.some((entry) => entry.type === 'deleted'),
    );

    expect(entries.map(({ type, id, item }) => ({ type, id, status: item?.status ?? null }))).toEqual([
      { type: 'created', id: kept, status: 'unread' },
      { type: 'updated', id: changed, status: 'read' },
      { type: 'deleted', id: removed, status: null },
    ]);
    const times = entries.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Read to its end, the feed answers an empty page with a cursor to ask again with.
    const again = (await page(key, 'feedback', cursor)).body.data!.page;
    expect(again).toMatchObject({ items: [], hasMore: false });
    expect(again.cursor).toEqual(expect.any(String));
    const next = await addItem(key, 'Later');
    const { entries: later } = await (async () => {
      let read = { entries: [] as Change[], cursor: '' };
      await eventually(
        async () => (read = await readToEnd(key, 'feedback', again.cursor)).entries.length > 0,
        SETTLE_WAIT_MS,
        'the later item',
      );
      return read;
    })();
    expect(later.map((entry) => [entry.type, entry.id])).toEqual([['created', next]]);
  });

  test('when read in small pages, then the pages together list every change once and only the last says there is no more', async () => {
    const { key } = await stack.createKey();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await addItem(key, `Paged ${i}`));
    await settledFeed(key, 'feedback', (listed) => listed.length === 5);

    const seen: string[] = [];
    let cursor: string | null = null;
    const flags: boolean[] = [];
    do {
      const answer: ChangePage = (await page(key, 'feedback', cursor, 2)).body.data!.page;
      seen.push(...answer.items.map((entry) => entry.id));
      flags.push(answer.hasMore);
      cursor = answer.cursor;
    } while (flags[flags.length - 1]);
    expect(seen).toEqual(ids);
    expect(flags).toEqual([true, true, false]);
  });

  test("when another organization's items change, then they are never listed; a read-only key may read its own organization's feed", async () => {
    const writer = await stack.createKey();
    const reader = await stack.createKey({ orgId: writer.orgId, readOnly: true });
    const stranger = await stack.createKey();
    const own = await addItem(writer.key, 'Own');
    await addItem(stranger.key, 'Foreign');

    const { entries } = await settledFeed(reader.key, 'feedback', (listed) => listed.length > 0);
    expect(entries.map((entry) => entry.id)).toEqual([own]);
  });

  test('when a tombstone is written and its item stays, then the feed waits while the delete may still land, then passes over it without a deletion', async () => {
    const { key, orgId } = await stack.createKey();
    const id = await addItem(key, 'Still here');
    const list = await stack.gql<{ feedbackItems: { items: Array<Record<string, unknown>> } }>(LIST_FEEDBACK, {
      apiKey: key,
    });
    // What removeFeedback writes before deleting, with the delete not landed (yet, or ever).
    const connection = await stack.connect('feedback');
    await new FeedbackTombstones(connection).record(id, { ...list.body.data!.feedbackItems.items[0], orgId });
    const marker = await addItem(key, 'Marker, stamped after the tombstone');
    // Another organization's change, stamped after the marker: once it is listed, the marker has settled too.
    const other = await stack.createKey();
    const later = await addItem(other.key, 'Stamped after the marker');
    await settledFeed(other.key, 'feedback', (listed) => listed.some((entry) => entry.id === later));

    const held = await readToEnd(key, 'feedback');
    expect(held.entries.map((entry) => [entry.type, entry.id])).toEqual([['created', id]]);

    // Past REMOVAL_GRACE_MS the removal has failed: the tombstone stands for nothing.
    await connection
      .collection('feedback_tombstones')
      .updateOne(
        { _id: new Types.ObjectId(id) },
        { $set: { removedAt: new Date(Date.now() - REMOVAL_GRACE_MS - 1_000) } },
      );
    const { entries } = await readToEnd(key, 'feedback', held.cursor);
    expect(entries.map((entry) => [entry.type, entry.id])).toEqual([['created', marker]]);
  });

  test.each([
    ['take 101', { take: 101 }, 'take'],
    ['take -1', { take: -1 }, 'take'],
    ['an edited cursor', { after: 'not-a-cursor' }, 'after'],
    ['a 5,000-character cursor', { after: 'x'.repeat(5_000) }, 'after'],
  ])('when the arguments are %s, then BAD_REQUEST names the argument', async (_label, args, argument) => {
    const { key } = await stack.createKey();
    const answer = await stack.gql(changesQuery('feedback'), { k: key, ...args });
    expect(answer.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_REQUEST', argument });
  });

  test('when given a cursor of another feed or of the list, then BAD_REQUEST: cursors only fit their own feed', async () => {
    const { key } = await stack.createKey();
    await addItem(key, 'One');
    await addItem(key, 'Two');
    const listCursor = (
      await stack.gql<{ feedbackItems: { nextCursor: string } }>(
        `query($k: String!) { feedbackItems(apiKey: $k, take: 1) { nextCursor } }`,
        { k: key },
      )
    ).body.data!.feedbackItems.nextCursor;
    const contactsCursor = (await page(key, 'contacts', null)).body.data!.page.cursor;
    for (const after of [listCursor, contactsCursor]) {
      expect((await page(key, 'feedback', after)).body.errors?.[0].extensions).toMatchObject({
        code: 'BAD_REQUEST',
        argument: 'after',
      });
    }
  });

  test('when the cursor is older than the days deletions are kept, then BAD_REQUEST tells the client to export again', async () => {
    const { key } = await stack.createKey();
    const expired = changesCursorAt('feedback', new Date(Date.now() - CHANGES_KEPT_MS - 60_000), 0);
    const answer = await page(key, 'feedback', expired);
    expect(answer.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_REQUEST',
      argument: 'after',
      reason: 'CURSOR_EXPIRED',
    });
    expect(answer.body.errors?.[0].message).toMatch(/export/);
  });

  test('when the key is invalid, then UNAUTHENTICATED', async () => {
    expect((await page('fik_invalid', 'feedback', null)).body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('contactsChanges and accountsChanges', () => {
  test('when records are imported, then each feed lists them as created, in the order they were stamped', async () => {
    const { key, orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [{ name: 'Ada' }, { name: 'Grace' }]);
    await insertAccounts(stack, orgId, [{ name: 'Acme' }]);

    const contacts = await settledFeed(key, 'contacts', (listed) => listed.length === 2);
    const accounts = await settledFeed(key, 'accounts', (listed) => listed.length === 1);
    expect(contacts.entries.map((entry) => [entry.type, entry.item?.name])).toEqual([
      ['created', 'Ada'],
      ['created', 'Grace'],
    ]);
    expect(accounts.entries.map((entry) => [entry.type, entry.item?.name])).toEqual([['created', 'Acme']]);
  });
});

describe('contacts and accounts changed by members', () => {
  /** Creates Kept, Changed and Removed through the service's admin schema, renames Changed and deletes Removed. */
  async function changeDirectory(orgId: string, resource: 'contacts' | 'accounts') {
    const url = stack.subgraphs[resource].url;
    const owner = [memberPrincipal(orgId, 'owner')];
    const [create, update, remove] =
      resource === 'contacts'
        ? [ADMIN.createContact, ADMIN.updateContact, ADMIN.deleteContact]
        : [ADMIN.createAccount, ADMIN.updateAccount, ADMIN.deleteAccount];
    const ids: string[] = [];
    for (const name of ['Kept', 'Changed', 'Removed']) {
      const answer = await serviceAdmin<Record<string, { id: string }>>(url, owner, create, { input: { name } });
      expect(answer.errors).toBeUndefined();
      ids.push(Object.values(answer.data!)[0].id);
    }
    expect(
      (await serviceAdmin(url, owner, update, { id: ids[1], input: { name: 'Changed again' } })).errors,
    ).toBeUndefined();
    expect((await serviceAdmin(url, owner, remove, { id: ids[2] })).errors).toBeUndefined();
    return ids;
  }

  test.each(['contacts', 'accounts'] as const)(
    'when %s are created, edited and deleted, then the feed lists each once at its last change, the deleted one without an item',
    async (resource) => {
      const { key, orgId } = await stack.createKey();
      const [kept, changed, removed] = await changeDirectory(orgId, resource);
      const { entries } = await settledFeed(key, resource, (listed) =>
        listed.some((entry) => entry.type === 'deleted'),
      );
      expect(entries.map(({ type, id, item }) => [type, id, item?.name ?? null])).toEqual([
        ['created', kept, 'Kept'],
        ['updated', changed, 'Changed again'],
        ['deleted', removed, null],
      ]);
    },
  );

  test('when a removal failed after its tombstone was written, then the contact is not listed as deleted', async () => {
    const { key, orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [{ name: 'Still here' }]);
    const [contact] = (
      await serviceAdmin<{ contacts: { items: Array<{ id: string; name: string }> } }>(
        stack.subgraphs.contacts.url,
        [memberPrincipal(orgId, 'owner')],
        ADMIN.contacts,
      )
    ).data!.contacts.items;
    // What a deletion writes before the contact goes, left alone as a removal that failed right after.
    const connection = await stack.connect('contacts');
    await directoryTombstones(connection, 'contacts').record(contact.id, { orgId, name: contact.name });
    // Past REMOVAL_GRACE_MS: the delete will never land (see the feedback test for the wait before).
    await connection
      .collection('contacts_tombstones')
      .updateOne(
        { _id: new Types.ObjectId(contact.id) },
        { $set: { removedAt: new Date(Date.now() - REMOVAL_GRACE_MS - 1_000) } },
      );
    await insertContacts(stack, orgId, [{ name: 'Marker, stamped after the tombstone' }]);

    const { entries } = await settledFeed(key, 'contacts', (listed) =>
      listed.some((entry) => entry.item?.name?.startsWith('Marker')),
    );
    expect(entries.map((entry) => [entry.type, entry.item?.name])).toEqual([
      ['created', 'Still here'],
      ['created', 'Marker, stamped after the tombstone'],
    ]);
  });
});
