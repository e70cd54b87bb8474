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
