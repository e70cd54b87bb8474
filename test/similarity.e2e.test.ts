import { startStack, type Stack } from './helpers/stack';

const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id } }`;
const SIMILAR = `query($apiKey: String!, $id: String!, $take: Int) { feedbackItem(apiKey: $apiKey, id: $id) { id similar(take: $take) { score item { id title } } } }`;
const REMOVE = `mutation($apiKey: String!, $id: String!) { removeFeedbackItem(apiKey: $apiKey, id: $id) }`;

interface Similar {
  score: number;
  item: { id: string; title: string };
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function add(apiKey: string, title: string, content: string): Promise<string> {
  const response = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD, {
    apiKey,
    input: { source: 'api', title, content },
  });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem.id;
}

async function similar(apiKey: string, id: string, take?: number) {
  return stack.gql<{ feedbackItem: { similar: Similar[] } }>(SIMILAR, { apiKey, id, take });
}

const OTHERS: Array<[string, string]> = [
  ['Dark mode', 'Please add a dark theme for the dashboard, our team works at night.'],
  ['Invoice address', 'How do I change the billing address printed on invoices?'],
  ['Slack', 'Notifications to Slack arrive twice for every comment.'],
  ['Mobile', 'The iPhone app freezes when I open a report with charts.'],
];

describe('similar feedback', () => {
  test('when an item restates another one in other words, then similar ranks it first with a score between 0 and 1', async () => {
    const { key } = await stack.createKey();
    const original = await add(
      key,
      'CSV export broken',
      'The CSV export stops after 1,000 rows, so our monthly report is incomplete.',
    );
    const restated = await add(
      key,
      'Export cuts off',
      'Exporting to CSV only gives us the first thousand rows of the report.',
    );
    for (const [title, content] of OTHERS) await add(key, title, content);

    const response = await similar(key, original, 3);
    expect(response.body.errors).toBeUndefined();
    const found = response.body.data!.feedbackItem.similar;
    expect(found[0].item.id).toBe(restated);
    expect(found.map((entry) => entry.item.id)).not.toContain(original);
    for (const entry of found) {
      expect(entry.score).toBeGreaterThan(0);
      expect(entry.score).toBeLessThanOrEqual(1);
    }
    expect(found.map((entry) => entry.score)).toEqual([...found.map((entry) => entry.score)].sort((a, b) => b - a));
  });

  test('when another organization has the same text, then it is never proposed', async () => {
    const mine = await stack.createKey();
    const theirs = await stack.createKey();
    const text: [string, string] = [
      'SSO login fails',
      'Signing in with SSO fails with an invalid SAML response since Monday.',
    ];
    const own = await add(mine.key, ...text);
    const twin = await add(
      mine.key,
      'Cannot log in with SSO',
      'SSO login gives an invalid SAML response for the whole team.',
    );
    const foreign = await add(theirs.key, ...text);

    const ids = (await similar(mine.key, own, 20)).body.data!.feedbackItem.similar.map((entry) => entry.item.id);
    expect(ids).toContain(twin);
    expect(ids).not.toContain(foreign);
    // And the other way round: their item sees none of ours.
    const theirsFound = (await similar(theirs.key, foreign, 20)).body.data!.feedbackItem.similar.map(
      (entry) => entry.item.id,
    );
    expect(theirsFound).not.toContain(own);
    expect(theirsFound).not.toContain(twin);
  });

  test('when a similar item is deleted, then it is no longer proposed', async () => {
    const { key } = await stack.createKey();
    const first = await add(
      key,
      'Search is slow',
      'Searching for a customer name takes ten seconds in the contacts list.',
    );
    const second = await add(key, 'Slow search', 'The contacts search is really slow, ten seconds for every name.');
    expect((await similar(key, first)).body.data!.feedbackItem.similar.map((entry) => entry.item.id)).toEqual([second]);
    expect((await stack.gql(REMOVE, { apiKey: key, id: second })).body.errors).toBeUndefined();
    expect((await similar(key, first)).body.data!.feedbackItem.similar).toEqual([]);
  });

  test('when take is out of range, then BAD_REQUEST names it', async () => {
    const { key } = await stack.createKey();
    const id = await add(key, 'Anything', 'Some feedback text.');
    const response = await similar(key, id, 21);
    expect(response.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(response.body.errors?.[0].message).toContain('take');
    expect((await similar(key, id, 0)).body.data!.feedbackItem.similar).toEqual([]);
  });
});
