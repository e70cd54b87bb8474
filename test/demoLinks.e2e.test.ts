import { curlExample, type Output, seedOrganization } from '@fi/cli';
import { startStack, type Stack } from './helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Demo = {
  feedbackItems: {
    total: number;
    items: Array<{
      contact: null | { name: string; account: null | { name: string; feedbackSummary: { total: number } } };
    }>;
  };
};

test('when an organization is seeded, then the printed demo query shows feedback with its author, company and summary', async () => {
  const { key, orgId } = await stack.createKey();
  const [feedback, contacts, accounts] = await Promise.all([
    stack.connect('feedback'),
    stack.connect('contacts'),
    stack.connect('accounts'),
  ]);
  const quiet: Output = { info: () => undefined, result: () => undefined };
  await seedOrganization(
    orgId,
    { feedback: 200, contacts: 30, accounts: 6 },
    { feedback, contacts, accounts, identity: feedback, integrations: feedback, close: async () => undefined },
    quiet,
  );

  // The query exactly as `npm start` prints it in its curl command.
  const body = JSON.parse(/-d '(.*)'$/.exec(curlExample(stack.gatewayUrl, key))![1]) as { query: string };
  const response = await stack.gql<Demo>(body.query);
  expect(response.body.errors).toBeUndefined();
  const items = response.body.data!.feedbackItems.items;
  expect(items.length).toBeGreaterThan(0);
  const linked = items.filter((item) => item.contact?.account);
  expect(linked.length).toBeGreaterThan(0);
  for (const item of linked) expect(item.contact!.account!.feedbackSummary.total).toBeGreaterThan(0);
});
