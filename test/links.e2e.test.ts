import mongoose from 'mongoose';
import { insertAccounts, insertContacts } from './helpers/fixtures';
import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

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
        account: null | { name: string; feedbackSummary: { total: number; positive: number; neutral: number; negative: number; unread: number; lastFeedbackAt: string | null } };
      };
    }>;
  };
}

const WALK = `query($k: String!, $take: Int) {
  feedbackItems(apiKey: $k, take: $take) {
    items { title contact { name account { name feedbackSummary { total positive neutral negative unread lastFeedbackAt } } } }
  }
}`;

async function addFeedback(key: string, input: Record<string, unknown>): Promise<{ id: string; publishedDate: string }> {
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
    const byTitle = Object.fromEntries(response.body.data!.feedbackItems.items.map((item) => [item.title, item.contact]));
    expect(byTitle.stranger).toBeNull();
    expect(byTitle.colleague).toBeNull();
    expect(byTitle.mine).toEqual({
      name: 'Ada',
      account: {
        name: 'Acme Corp',
        feedbackSummary: { total: 2, positive: 1, neutral: 0, negative: 1, unread: 2, lastFeedbackAt: last.publishedDate },
      },
    });
  });
});

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
    await insertContacts(stack, orgId, Array.from({ length: 50 }, (_, i) => ({ name: `P${i}`, email: `p${i}@c${i % 10}.example` })));
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
      expect(item.contact).toMatchObject({ name: `P${i}`, account: { name: `Company ${i % 10}`, feedbackSummary: { total: 5 } } });
    }
    // The page (items and total), then one query per service and level.
    expect(queries.feedback_items).toEqual(['find', 'countDocuments', 'find']);
    expect(queries.contacts).toEqual(['find']);
    expect(queries.accounts).toEqual(['find']);
  });

  test('when a page of accounts asks for their contacts and summaries, and the contacts for their feedback, then one query each', async () => {
    const { key, orgId } = await stack.createKey();
    await insertAccounts(stack, orgId, Array.from({ length: 20 }, (_, i) => ({ name: `Company ${i}`, domain: `c${i}.example` })));
    await insertContacts(stack, orgId, Array.from({ length: 40 }, (_, i) => ({ name: `P${i}`, email: `p${i}@c${i % 20}.example` })));
    for (let i = 0; i < 40; i += 1) await addFeedback(key, { title: `f${i}`, email: `p${i}@c${i % 20}.example` });

    let accounts: Array<{ name: string; feedbackSummary: { total: number }; contacts: { total: number; items: Array<{ name: string; feedback: { total: number; items: Array<{ title: string }> } }> } }> = [];
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
      for (const contact of account.contacts.items) expect(contact.feedback).toEqual({ total: 1, items: [{ title: `f${contact.name.slice(1)}` }] });
    }
    // accounts: the page and its total, then which accounts own their domain (for contacts and summaries).
    expect(queries.accounts).toEqual(['find', 'countDocuments', 'find']);
    expect(queries.contacts).toEqual(['find']);
    expect(queries.feedback_items).toEqual(['find', 'find']);
  });
});
