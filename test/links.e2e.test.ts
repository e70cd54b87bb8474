import mongoose from 'mongoose';
import { insertAccounts, insertContacts } from './helpers/fixtures';
import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';
import { signedIdentityFor } from './helpers/keys';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

interface Linked {
  feedbackItems: {
    items: Array<{
      title: string;
      contact: null | {
        name: string;
        account: null | {
          name: string;
          feedbackSummary: {
            total: number;
            positive: number;
            neutral: number;
            negative: number;
            unread: number;
            lastFeedbackAt: string | null;
          };
        };
      };
    }>;
  };
}

const WALK = `query($k: String!, $take: Int) {
  feedbackItems(apiKey: $k, take: $take) {
    items { title contact { name account { name feedbackSummary { total positive neutral negative unread lastFeedbackAt } } } }
  }
}`;

async function addFeedback(
  key: string,
  input: Record<string, unknown>,
): Promise<{ id: string; publishedDate: string }> {
  const response = await stack.gql<{ addFeedbackItem: { id: string; publishedDate: string } }>(ADD_FEEDBACK, {
    apiKey: key,
    input: { source: 'api', title: 't', content: 'c', ...input },
  });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem;
}

describe('feedback → contact → account → feedbackSummary', () => {
  test('when an item is written by a known contact of a known account, then one request walks to the account summary', async () => {
    const { key, orgId } = await stack.createKey();
    await insertAccounts(stack, orgId, [{ name: 'Acme Corp', domain: 'Acme.com' }]);
    await insertContacts(stack, orgId, [{ name: 'Ada', email: 'ADA@acme.com', company: 'Acme Corp' }]);
    await addFeedback(key, { title: 'mine', email: 'ada@ACME.com', sentiment: 'negative' });
    const last = await addFeedback(key, { title: 'colleague', email: 'bob@acme.com', sentiment: 'positive' });
    await addFeedback(key, { title: 'stranger', email: 'eve@elsewhere.com' });

    const response = await stack.gql<Linked>(WALK, { k: key });
    expect(response.body.errors).toBeUndefined();
    const byTitle = Object.fromEntries(
      response.body.data!.feedbackItems.items.map((item) => [item.title, item.contact]),
    );
    expect(byTitle.stranger).toBeNull();
    expect(byTitle.colleague).toBeNull();
    expect(byTitle.mine).toEqual({
      name: 'Ada',
      account: {
        name: 'Acme Corp',
        feedbackSummary: {
          total: 2,
          positive: 1,
          neutral: 0,
          negative: 1,
          unread: 2,
          lastFeedbackAt: last.publishedDate,
        },
      },
    });
  });
});

const reads = (methods: string[] = []) =>
  methods.filter((method) => method === 'find' || method === 'findOne' || method === 'countDocuments');

/** Database commands per collection while `run` goes, through every service of this in-process stack. */
async function countQueries(run: () => Promise<void>): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = {};
  mongoose.set('debug', (collection: string, method: string) => {
    (seen[collection] ??= []).push(method);
  });
  try {
    await run();
  } finally {
    mongoose.set('debug', false);
  }
  return seen;
}

describe('batching', () => {
  test('when a page of 50 items asks for contact, account and summary, then each service reads once per level', async () => {
    const { key, orgId } = await stack.createKey();
    const accounts = Array.from({ length: 10 }, (_, i) => ({ name: `Company ${i}`, domain: `c${i}.example` }));
    await insertAccounts(stack, orgId, accounts);
    await insertContacts(
      stack,
      orgId,
      Array.from({ length: 50 }, (_, i) => ({ name: `P${i}`, email: `p${i}@c${i % 10}.example` })),
    );
    for (let i = 0; i < 50; i += 1) await addFeedback(key, { title: `f${i}`, email: `P${i}@c${i % 10}.example` });

    let data: Linked | null | undefined;
    const queries = await countQueries(async () => {
      const response = await stack.gql<Linked>(WALK, { k: key, take: 50 });
      expect(response.body.errors).toBeUndefined();
      data = response.body.data;
    });
    const items = data!.feedbackItems.items;
    expect(items).toHaveLength(50);
    for (const item of items) {
      const i = Number(item.title.slice(1));
      expect(item.contact).toMatchObject({
        name: `P${i}`,
        account: { name: `Company ${i % 10}`, feedbackSummary: { total: 5 } },
      });
    }
    // The page's items, its total and the summaries from the kept counts, then one query per service and level.
    expect(queries.feedback_items).toEqual(['find']);
    // (The outbox relay may be releasing earlier writes' cells meanwhile: only reads are the request's.)
    expect(reads(queries.feedback_counts)).toEqual(['find', 'find']);
    expect(queries.contacts).toEqual(['find']);
    expect(queries.accounts).toEqual(['find']);
  });

  test('when a page of accounts asks for their contacts and summaries, and the contacts for their feedback, then one query each', async () => {
    const { key, orgId } = await stack.createKey();
    await insertAccounts(
      stack,
      orgId,
      Array.from({ length: 20 }, (_, i) => ({ name: `Company ${i}`, domain: `c${i}.example` })),
    );
    await insertContacts(
      stack,
      orgId,
      Array.from({ length: 40 }, (_, i) => ({ name: `P${i}`, email: `p${i}@c${i % 20}.example` })),
    );
    for (let i = 0; i < 40; i += 1) await addFeedback(key, { title: `f${i}`, email: `p${i}@c${i % 20}.example` });

    let accounts: Array<{
      name: string;
      feedbackSummary: { total: number };
      contacts: {
        total: number;
        items: Array<{ name: string; feedback: { total: number; items: Array<{ title: string }> } }>;
      };
    }> = [];
    const queries = await countQueries(async () => {
      const response = await stack.gql<{ accountItems: { items: typeof accounts } }>(
        `query($k: String!) { accountItems(apiKey: $k, take: 20) { items {
          name feedbackSummary { total } contacts(take: 5) { total items { name feedback(take: 5) { total items { title } } } }
        } } }`,
        { k: key },
      );
      expect(response.body.errors).toBeUndefined();
      accounts = response.body.data!.accountItems.items;
    });
    expect(accounts).toHaveLength(20);
    for (const account of accounts) {
      const i = Number(account.name.split(' ')[1]);
      expect(account.feedbackSummary.total).toBe(2);
      expect(account.contacts.total).toBe(2);
      expect(account.contacts.items.map((c) => c.name).sort()).toEqual([`P${i}`, `P${i + 20}`].sort());
      for (const contact of account.contacts.items)
        expect(contact.feedback).toEqual({ total: 1, items: [{ title: `f${contact.name.slice(1)}` }] });
    }
    // accounts: the page and its total, then which accounts own their domain (for contacts and summaries).
    expect(queries.accounts).toEqual(['find', 'countDocuments', 'find']);
    expect(queries.contacts).toEqual(['find']);
    // The contacts' feedback pages in one read of the items; the summaries from the kept counts.
    expect(queries.feedback_items).toEqual(['find']);
    expect(reads(queries.feedback_counts)).toEqual(['find']);
  });
});

const CONTACT_LINKS = `query($k: String!) { contactItems(apiKey: $k, take: 100) { items { name account { name } } } }`;
const ACCOUNT_LINKS = `query($k: String!, $skip: Int, $take: Int) { accountItems(apiKey: $k, take: 100) { items {
  name feedbackSummary { total } contacts(skip: $skip, take: $take) { total items { name } }
} } }`;

type ContactLinks = { contactItems: { items: Array<{ name: string; account: { name: string } | null }> } };
type AccountLinks = {
  accountItems: {
    items: Array<{
      name: string;
      feedbackSummary: { total: number };
      contacts: { total: number; items: Array<{ name: string }> };
    }>;
  };
};

async function accountOfEachContact(key: string): Promise<Record<string, string | null>> {
  const response = await stack.gql<ContactLinks>(CONTACT_LINKS, { k: key });
  expect(response.body.errors).toBeUndefined();
  return Object.fromEntries(response.body.data!.contactItems.items.map((c) => [c.name, c.account?.name ?? null]));
}

async function linksOfEachAccount(key: string, page: { skip?: number; take?: number } = {}) {
  const response = await stack.gql<AccountLinks>(ACCOUNT_LINKS, { k: key, ...page });
  expect(response.body.errors).toBeUndefined();
  return Object.fromEntries(response.body.data!.accountItems.items.map((a) => [a.name, a]));
}

describe('matching rules', () => {
  let key: string;
  beforeAll(async () => {
    let orgId: string;
    ({ key, orgId } = await stack.createKey());
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    await insertAccounts(stack, orgId, [
      { name: 'Acme Corp', domain: 'ACME.com', createdAt: day(1) },
      { name: 'Acme Duplicate', domain: 'acme.com', createdAt: day(2) },
      { name: 'Globex', domain: 'globex.io', createdAt: day(3) },
      { name: 'Gmail Fans', domain: 'gmail.com', createdAt: day(4) },
      { name: 'No Domain Ltd', createdAt: day(5) },
    ]);
    await insertContacts(stack, orgId, [
      { name: 'Work email', email: 'ann@Acme.COM', company: 'Globex' },
      { name: 'Free mail with company', email: 'bob@gmail.com', company: '  no domain ltd ' },
      { name: 'No email with company', company: 'GLOBEX' },
      { name: 'Unknown work domain', email: 'cy@initech.example', company: 'Globex' },
      { name: 'Free mail, no company', email: 'dee@gmail.com' },
      { name: 'Nothing' },
      { name: 'Subdomain', email: 'eve@eu.acme.com' },
    ]);
    for (const email of ['x@acme.com', 'y@ACME.com', 'z@gmail.com', 'bob@gmail.com', 'w@globex.io'])
      await addFeedback(key, { email });
    await addFeedback(key, {});
  });

  test('when contacts are read, then each links by its company email domain, else (no email or free mail) by company name', async () => {
    expect(await accountOfEachContact(key)).toEqual({
      'Work email': 'Acme Corp',
      'Free mail with company': 'No Domain Ltd',
      'No email with company': 'Globex',
      'Unknown work domain': null,
      'Free mail, no company': null,
      Nothing: null,
      Subdomain: null,
    });
  });

  test('when accounts are read, then each lists exactly the contacts that link to it, and sums its own domain only', async () => {
    const accounts = await linksOfEachAccount(key);
    const names = (name: string) => accounts[name].contacts.items.map((c) => c.name).sort();
    expect(names('Acme Corp')).toEqual(['Work email']);
    expect(names('Acme Duplicate')).toEqual([]);
    expect(names('Globex')).toEqual(['No email with company']);
    expect(names('Gmail Fans')).toEqual([]);
    expect(names('No Domain Ltd')).toEqual(['Free mail with company']);
    expect(Object.fromEntries(Object.entries(accounts).map(([name, a]) => [name, a.feedbackSummary.total]))).toEqual({
      'Acme Corp': 2,
      'Acme Duplicate': 0,
      Globex: 1,
      'Gmail Fans': 0,
      'No Domain Ltd': 0,
    });
  });
});

describe('AccountItem.contacts and ContactItem.feedback', () => {
  test('when an account has more contacts than a page, then skip and take page them newest first with the full total', async () => {
    const { key, orgId } = await stack.createKey();
    await insertAccounts(stack, orgId, [{ name: 'Big', domain: 'big.example' }]);
    await insertContacts(
      stack,
      orgId,
      Array.from({ length: 7 }, (_, i) => ({ name: `P${i}`, email: `p${i}@big.example` })),
    );
    const first = (await linksOfEachAccount(key, { take: 3 })).Big.contacts;
    const second = (await linksOfEachAccount(key, { skip: 3, take: 3 })).Big.contacts;
    expect(first).toEqual({ total: 7, items: [{ name: 'P6' }, { name: 'P5' }, { name: 'P4' }] });
    expect(second).toEqual({ total: 7, items: [{ name: 'P3' }, { name: 'P2' }, { name: 'P1' }] });
    const refused = await stack.gql(ACCOUNT_LINKS, { k: key, take: 101 });
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'take' } });
  });

  test("when a contact's feedback is filtered and paged with a cursor, then it gets its own matching items once each", async () => {
    const { key, orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [
      { name: 'Ada', email: 'ada@example.com' },
      { name: 'Bob', email: 'bob@example.com' },
    ]);
    for (let i = 0; i < 5; i += 1)
      await addFeedback(key, {
        title: `ada ${i}`,
        email: 'ADA@example.com',
        sentiment: i % 2 ? 'negative' : 'positive',
      });
    await addFeedback(key, { title: 'bob 0', email: 'bob@example.com', sentiment: 'negative' });
    const query = `query($k: String!, $after: String) { contactItems(apiKey: $k) { items { name
      feedback(take: 1, sentiment: "negative", search: "ADA", after: $after) { total nextCursor items { title } }
    } } }`;
    type Feedback = {
      contactItems: {
        items: Array<{
          name: string;
          feedback: { total: number; nextCursor: string | null; items: Array<{ title: string }> };
        }>;
      };
    };
    const titles: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page += 1) {
      const response: { body: { data?: Feedback | null; errors?: unknown[] } } = await stack.gql<Feedback>(query, {
        k: key,
        after,
      });
      expect(response.body.errors).toBeUndefined();
      const contacts = Object.fromEntries(response.body.data!.contactItems.items.map((c) => [c.name, c.feedback]));
      expect(contacts.Bob).toEqual({ total: 0, nextCursor: null, items: [] });
      expect(contacts.Ada.total).toBe(2);
      titles.push(...contacts.Ada.items.map((item) => item.title));
      after = contacts.Ada.nextCursor;
      if (!after) break;
    }
    expect(titles).toEqual(['ada 3', 'ada 1']);

    const tooLong = await stack.gql(
      `query($k: String!) { contactItems(apiKey: $k) { items { feedback(search: "${'x'.repeat(201)}") { total } } } }`,
      { k: key },
    );
    expect(tooLong.body.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_REQUEST', argument: 'search', max: 200 },
    });
  });
});

describe('organizations never meet', () => {
  test('when two organizations have the same emails, domains and names, then every link stays inside each', async () => {
    const orgs = [await stack.createKey(), await stack.createKey()];
    for (const [i, { key, orgId }] of orgs.entries()) {
      await insertAccounts(stack, orgId, [{ name: `Acme ${i}`, domain: 'acme.com' }, { name: 'Shared Name' }]);
      await insertContacts(stack, orgId, [
        { name: `Ada ${i}`, email: 'ada@acme.com' },
        { name: `Free ${i}`, email: 'f@gmail.com', company: 'Shared Name' },
      ]);
      for (let n = 0; n <= i; n += 1) await addFeedback(key, { title: `from ${i}`, email: 'ada@acme.com' });
    }
    for (const [i, { key }] of orgs.entries()) {
      const walk = await stack.gql<Linked>(WALK, { k: key });
      expect(walk.body.errors).toBeUndefined();
      for (const item of walk.body.data!.feedbackItems.items) {
        expect(item).toMatchObject({
          title: `from ${i}`,
          contact: { name: `Ada ${i}`, account: { name: `Acme ${i}`, feedbackSummary: { total: i + 1 } } },
        });
      }
      const accounts = await linksOfEachAccount(key);
      expect(accounts[`Acme ${i}`].contacts.items).toEqual([{ name: `Ada ${i}` }]);
      expect(accounts['Shared Name'].contacts.items).toEqual([{ name: `Free ${i}` }]);
      const contacts = await stack.gql<{
        contactItems: { items: Array<{ name: string; feedback: { total: number } }> };
      }>(`query($k: String!) { contactItems(apiKey: $k) { items { name feedback { total } } } }`, { k: key });
      expect(contacts.body.data!.contactItems.items.find((c) => c.name === `Ada ${i}`)?.feedback.total).toBe(i + 1);
    }
  });

  test.each([
    ['contacts', 'FeedbackItem', '... on FeedbackItem { contact { name } }', { email: 'ada@acme.com' }],
    ['accounts', 'ContactItem', '... on ContactItem { account { name } }', { email: 'ada@acme.com', company: 'Acme' }],
    [
      'contacts',
      'AccountItem',
      '... on AccountItem { contacts { total items { name } } }',
      { linkDomain: 'acme.com', linkName: 'acme' },
    ],
    ['feedback', 'ContactItem', '... on ContactItem { feedback { total items { title } } }', { email: 'ada@acme.com' }],
    ['feedback', 'AccountItem', '... on AccountItem { feedbackSummary { total } }', { linkDomain: 'acme.com' }],
  ] as const)(
    'when the %s subgraph is sent a %s representation of another organization, then it refuses and reads nothing',
    async (service, typename, selection, fields) => {
      const victim = await stack.createKey();
      const attacker = await stack.createKey();
      await insertAccounts(stack, victim.orgId, [{ name: 'Acme', domain: 'acme.com' }]);
      await insertContacts(stack, victim.orgId, [{ name: 'Victim', email: 'ada@acme.com', company: 'Acme' }]);
      await addFeedback(victim.key, { title: 'secret', email: 'ada@acme.com' });
      const url = `${stack.subgraphs[service].url}/graphql`;
      const representation = { __typename: typename, id: '0123456789abcdef01234567', orgId: victim.orgId, ...fields };
      const query = `query($r: [_Any!]!) { _entities(representations: $r) { ${selection} } }`;

      const forged = await stack.gql(query, { r: [representation] }, { url, headers: signedIdentityFor(attacker.key) });
      expect(forged.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      expect(JSON.stringify(forged.body.data ?? null)).not.toMatch(/Victim|secret|Acme|"total":1/);

      const keyless = await stack.gql(query, { r: [representation] }, { url });
      expect(keyless.body.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });

      // The same representation with the victim's own key is answered: the refusal is about the organization.
      const own = await stack.gql(query, { r: [representation] }, { url, headers: signedIdentityFor(victim.key) });
      expect(own.body.errors).toBeUndefined();
    },
  );
});
