import mongoose from 'mongoose';
import { insertAccounts, insertContacts } from './helpers/fixtures';
import { eventually } from './helpers/processes';
import {
  ADD_FEEDBACK,
  GET_ACCOUNT,
  GET_CONTACT,
  LIST_ACCOUNTS,
  LIST_CONTACTS,
  REMOVE_FEEDBACK,
} from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

interface Contact {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  tags: string[];
  totalFeedbacks: number;
  lastInteraction: string | null;
}
interface Account {
  id: string;
  name: string;
  domain: string | null;
  score: number | null;
  churnRisk: number | null;
  tags: string[];
}
type Contacts = { contactItems: { total: number; items: Contact[] } };
type Accounts = { accountItems: { total: number; items: Account[] } };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('contactItems', () => {
  let key: string;
  let orgId: string;
  beforeAll(async () => {
    ({ key, orgId } = await stack.createKey());
    await insertContacts(stack, orgId, [
      { name: 'Grace Hopper', email: 'grace@navy.mil', company: 'US Navy', tags: ['vip'] },
      { name: 'Alan Turing', email: 'alan@bletchley.uk', company: 'Bletchley Park' },
      { name: 'Dot.Star (a+b)', email: 'dot@example.com', company: 'Regex Inc' },
      {
        name: 'Ada Lovelace',
        email: 'Ada@Example.com',
        company: 'Analytical Engines',
        lastInteraction: new Date('2020-01-01T00:00:00Z'),
      },
    ]);
  });

  test('when no search is given, then all contacts come newest first with total', async () => {
    const response = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: key });
    const { total, items } = response.body.data!.contactItems;
    expect(total).toBe(4);
    expect(items.map((c) => c.name)).toEqual(['Ada Lovelace', 'Dot.Star (a+b)', 'Alan Turing', 'Grace Hopper']);
    expect(items[3].tags).toEqual(['vip']);
  });

  test.each([
    ['a name, in another case', 'GRACE', ['Grace Hopper']],
    ['an email part', 'bletchley.uk', ['Alan Turing']],
    ['a company part', 'analytical', ['Ada Lovelace']],
    ['regex metacharacters, literally', '.star (a+b', ['Dot.Star (a+b)']],
    ['a dot, literally', '.', ['Ada Lovelace', 'Dot.Star (a+b)', 'Alan Turing', 'Grace Hopper']],
    ['a pattern that would match anything as a regex', '.*', []],
    ['a NUL character, which MongoDB refuses inside a pattern', 'Ada\u0000', []],
  ])('when searching for %s, then the matching contacts come back', async (_, search, names) => {
    const response = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: key, search });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.contactItems.items.map((c) => c.name)).toEqual(names);
    expect(response.body.data!.contactItems.total).toBe(names.length);
  });

  test('when paging past the end, then the page is empty and total stays', async () => {
    const response = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: key, skip: 10, take: 5 });
    expect(response.body.data!.contactItems).toEqual({ total: 4, items: [] });
  });

  test('when take is over 100, then BAD_REQUEST', async () => {
    const response = await stack.gql(LIST_CONTACTS, { apiKey: key, take: 1000 });
    expect(response.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
  });

  test('when feedback is created and removed, then totalFeedbacks and lastInteraction follow', async () => {
    const { key: ownKey, orgId: ownOrg } = await stack.createKey();
    await insertContacts(stack, ownOrg, [
      { name: 'Ada', email: 'Ada@Example.com', lastInteraction: new Date('2020-01-01T00:00:00Z') },
      { name: 'Nobody', email: 'nobody@example.com' },
      { name: 'No Email' },
    ]);
    const byName = async () => {
      const response = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: ownKey });
      expect(response.body.errors).toBeUndefined();
      return Object.fromEntries(response.body.data!.contactItems.items.map((c) => [c.name, c]));
    };

    let contacts = await byName();
    expect(contacts.Ada).toMatchObject({ totalFeedbacks: 0, lastInteraction: '2020-01-01T00:00:00.000Z' });
    expect(contacts.Nobody).toMatchObject({ totalFeedbacks: 0, lastInteraction: null });
    expect(contacts['No Email']).toMatchObject({ totalFeedbacks: 0, lastInteraction: null });

    const ids: string[] = [];
    for (const email of ['ada@example.com', 'ADA@EXAMPLE.COM']) {
      const created = await stack.gql<{ addFeedbackItem: { id: string; publishedDate: string } }>(ADD_FEEDBACK, {
        apiKey: ownKey,
        input: { source: 'api', title: 't', content: 'c', email },
      });
      ids.push(created.body.data!.addFeedbackItem.id);
    }
    const newest = (
      await stack.gql<{ feedbackItem: { publishedDate: string } }>(
        `query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { publishedDate } }`,
        { k: ownKey, id: ids[1] },
      )
    ).body.data!.feedbackItem.publishedDate;

    contacts = await byName();
    expect(contacts.Ada).toMatchObject({ totalFeedbacks: 2, lastInteraction: newest });
    expect(contacts.Nobody.totalFeedbacks).toBe(0);

    await stack.gql(REMOVE_FEEDBACK, { apiKey: ownKey, id: ids[1] });
    contacts = await byName();
    expect(contacts.Ada.totalFeedbacks).toBe(1);
    expect(Date.parse(contacts.Ada.lastInteraction!)).toBeLessThanOrEqual(Date.parse(newest));
    expect(Date.parse(contacts.Ada.lastInteraction!)).toBeGreaterThan(Date.parse('2020-01-01T00:00:00Z'));
  });

  test('when a page of 20 contacts is read, then their feedback figures cost one read of the kept counts and none of the items', async () => {
    const { key: ownKey, orgId: ownOrg } = await stack.createKey();
    await insertContacts(
      stack,
      ownOrg,
      Array.from({ length: 20 }, (_, i) => ({ name: `Person ${i}`, email: `person${i}@example.com` })),
    );
    // The outbox relay reads items in the background while earlier tests' changes are open; only this
    // request's reads are to be counted.
    const feedback = await stack.connect('feedback');
    await eventually(
      async () => (await feedback.collection('webhook_outbox').countDocuments({ doneAt: null })) === 0,
      60_000,
      'no open change left by earlier tests',
    );
    const feedbackQueries: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => {
      if (collection === 'feedback_items' || collection === 'feedback_counts')
        feedbackQueries.push(`${collection}.${method}`);
    });
    try {
      const response = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: ownKey, take: 20 });
      expect(response.body.data!.contactItems.items).toHaveLength(20);
    } finally {
      mongoose.set('debug', false);
    }
    expect(feedbackQueries).toEqual(['feedback_counts.find']);
  });

  test('when another organization has feedback from the same email, then it is not counted', async () => {
    const mine = await stack.createKey();
    const theirs = await stack.createKey();
    await insertContacts(stack, mine.orgId, [{ name: 'Shared Person', email: 'shared@example.com' }]);
    await stack.gql(ADD_FEEDBACK, {
      apiKey: theirs.key,
      input: { source: 'api', title: 't', content: 'c', email: 'shared@example.com' },
    });

    const response = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: mine.key });
    expect(response.body.data!.contactItems.items[0].totalFeedbacks).toBe(0);
  });

  test("when a contact is read by id, then it comes back; another organization's key gets NOT_FOUND", async () => {
    const list = await stack.gql<Contacts>(LIST_CONTACTS, { apiKey: key, search: 'grace' });
    const id = list.body.data!.contactItems.items[0].id;
    const own = await stack.gql<{ contactItem: Contact }>(GET_CONTACT, { apiKey: key, id });
    expect(own.body.data!.contactItem).toMatchObject({ id, name: 'Grace Hopper', totalFeedbacks: 0 });

    const stranger = await stack.createKey();
    const other = await stack.gql(GET_CONTACT, { apiKey: stranger.key, id });
    expect(other.body.data).toEqual({ contactItem: null });
    expect(other.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  test('when the internal fields are asked for, then the public API does not have them', async () => {
    const response = await stack.gql(
      'query($k: String!) { contactItems(apiKey: $k) { items { orgId storedLastInteraction } } }',
      { k: key },
    );
    expect(response.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });
});

describe('accountItems', () => {
  let key: string;
  let orgId: string;
  beforeAll(async () => {
    ({ key, orgId } = await stack.createKey());
    await insertAccounts(stack, orgId, [
      { name: 'Acme Corp', domain: 'acme.com', score: 0.9, churnRisk: 0.1, tags: ['enterprise'] },
      { name: 'Globex', domain: 'globex.io', score: 0.3, churnRisk: 0.8 },
      { name: 'Initech', domain: 'initech.example' },
    ]);
  });

  test('when searching by name or domain, then matches come back case-insensitively', async () => {
    const byDomain = await stack.gql<Accounts>(LIST_ACCOUNTS, { apiKey: key, search: 'GLOBEX.IO' });
    expect(byDomain.body.data!.accountItems.items.map((a) => a.name)).toEqual(['Globex']);
    const byName = await stack.gql<Accounts>(LIST_ACCOUNTS, { apiKey: key, search: 'acme' });
    expect(byName.body.data!.accountItems.items[0]).toMatchObject({ score: 0.9, churnRisk: 0.1, tags: ['enterprise'] });
  });

  test('when an account is read by id, then every field comes back; another org gets NOT_FOUND', async () => {
    const list = await stack.gql<Accounts>(LIST_ACCOUNTS, { apiKey: key, search: 'initech' });
    const id = list.body.data!.accountItems.items[0].id;
    const own = await stack.gql<{ accountItem: Account }>(GET_ACCOUNT, { apiKey: key, id });
    expect(own.body.data!.accountItem).toMatchObject({
      id,
      name: 'Initech',
      domain: 'initech.example',
      score: null,
      tags: [],
    });

    const stranger = await stack.createKey();
    const other = await stack.gql(GET_ACCOUNT, { apiKey: stranger.key, id });
    expect(other.body.data).toEqual({ accountItem: null });
    expect(other.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('one request across all three subgraphs', () => {
  test('when feedback, contacts and accounts are asked for together, then each answers', async () => {
    const { key, orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [{ name: 'Pat', email: 'pat@example.com' }]);
    await insertAccounts(stack, orgId, [{ name: 'Pat Inc', domain: 'pat.example' }]);
    await stack.gql(ADD_FEEDBACK, {
      apiKey: key,
      input: { source: 'api', title: 't', content: 'c', email: 'pat@example.com' },
    });

    const response = await stack.gql<{
      feedbackItems: { total: number };
      contactItems: { items: Contact[] };
      accountItems: { total: number };
    }>(
      `query($k: String!) {
        feedbackItems(apiKey: $k) { total }
        contactItems(apiKey: $k) { items { name totalFeedbacks } }
        accountItems(apiKey: $k) { total }
      }`,
      { k: key },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      feedbackItems: { total: 1 },
      contactItems: { items: [{ name: 'Pat', totalFeedbacks: 1 }] },
      accountItems: { total: 1 },
    });
  });
});
