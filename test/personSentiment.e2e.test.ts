import { recountOrganization } from '@fi/feedback';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';

const ADD = `mutation($k: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $k, input: $input) { id sentiment sentimentSource } }`;
const GIVE = `mutation($k: String!, $id: String!, $s: String!) {
  updateFeedbackItemSentiment(apiKey: $k, id: $id, sentiment: $s) { id sentiment sentimentScore sentimentSource updatedAt }
}`;
const GET = `query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { sentiment sentimentScore sentimentSource } }`;
const GET_WITH_STATUS = `query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { sentiment sentimentSource status } }`;
const SET_STATUS = `mutation($k: String!, $id: String!, $s: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: $s) { id } }`;
const COUNTS = `query($k: String!, $from: DateTime!, $to: DateTime!) {
  negative: feedbackItems(apiKey: $k, sentiment: "negative") { total }
  positive: feedbackItems(apiKey: $k, sentiment: "positive") { total }
  feedbackInsights(apiKey: $k, from: $from, to: $to) {
    total
    bySentiment { positive neutral negative none }
    byStatus { unread read archived }
  }
}`;

interface Item {
  id: string;
  sentiment: string | null;
  sentimentScore?: number | null;
  sentimentSource: string;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function add(key: string, title: string, content: string, sentiment?: string): Promise<Item> {
  const response = await stack.gql<{ addFeedbackItem: Item }>(ADD, {
    k: key,
    input: { source: 'api', title, content, ...(sentiment ? { sentiment } : {}) },
  });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem;
}

const give = (key: string, id: string, sentiment: string) =>
  stack.gql<{ updateFeedbackItemSentiment: Item & { updatedAt: string } }>(GIVE, { k: key, id, s: sentiment });

async function counts(key: string) {
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 86_400_000).toISOString();
  const response = await stack.gql<{
    negative: { total: number };
    positive: { total: number };
    feedbackInsights: { total: number; bySentiment: Record<string, number>; byStatus: Record<string, number> };
  }>(COUNTS, { k: key, from, to });
  expect(response.body.errors).toBeUndefined();
  const data = response.body.data!;
  return {
    negative: data.negative.total,
    positive: data.positive.total,
    insights: data.feedbackInsights.bySentiment,
    byStatus: data.feedbackInsights.byStatus,
  };
}

describe('updateFeedbackItemSentiment', () => {
  test("when a person gives a computed item another sentiment, then it is the person's, without a score, and counted at once", async () => {
    const { key } = await stack.createKey();
    const item = await add(key, 'Checkout broken', 'The checkout fails every time and support never answers.');
    expect(item).toMatchObject({ sentiment: 'negative', sentimentSource: 'computed' });
    expect(await counts(key)).toMatchObject({ negative: 1, positive: 0 });

    const response = await give(key, item.id, 'positive');
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.updateFeedbackItemSentiment).toMatchObject({
      id: item.id,
      sentiment: 'positive',
      sentimentScore: null,
      sentimentSource: 'person',
    });
    const read = await stack.gql<{ feedbackItem: Item }>(GET, { k: key, id: item.id });
    expect(read.body.data!.feedbackItem).toEqual({
      sentiment: 'positive',
      sentimentScore: null,
      sentimentSource: 'person',
    });
    await eventually(
      async () => {
        const now = await counts(key);
        return now.negative === 0 && now.positive === 1 && now.insights.positive === 1 && now.insights.negative === 0;
      },
      20_000,
      'the list totals and insights moving the item to positive',
    );
  });

  test('when a person corrects a sentiment the client provided, then the person wins; giving it again changes nothing', async () => {
    const { key } = await stack.createKey();
    const item = await add(key, 'Fine', 'Works.', 'negative');
    expect(item.sentimentSource).toBe('provided');
    const first = await give(key, item.id, 'neutral');
    expect(first.body.data!.updateFeedbackItemSentiment).toMatchObject({
      sentiment: 'neutral',
      sentimentSource: 'person',
    });
    const again = await give(key, item.id, 'neutral');
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data!.updateFeedbackItemSentiment.updatedAt).toBe(
      first.body.data!.updateFeedbackItemSentiment.updatedAt,
    );
  });

  test('when the sentiment is not one of the three, then BAD_REQUEST names the argument and the item is unchanged', async () => {
    const { key } = await stack.createKey();
    const item = await add(key, 'Slow dashboard', 'The dashboard takes a minute to load.');
    const response = await give(key, item.id, 'angry');
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'sentiment must be one of positive, neutral, negative (got "angry")',
      extensions: { code: 'BAD_REQUEST' },
    });
    const read = await stack.gql<{ feedbackItem: Item }>(GET, { k: key, id: item.id });
    expect(read.body.data!.feedbackItem.sentimentSource).toBe(item.sentimentSource);
  });

  test('when a read-only key or another organization gives a sentiment, then FORBIDDEN, and the item keeps its own', async () => {
    const { key, orgId } = await stack.createKey();
    const item = await add(key, 'Love the app', 'Great work on the new release.');
    const { key: readOnly } = await stack.createKey({ orgId, readOnly: true });
    const { key: stranger } = await stack.createKey();

    const refused = await give(readOnly, item.id, 'negative');
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Not authorized to update this feedback',
      extensions: { code: 'FORBIDDEN' },
    });
    const foreign = await give(stranger, item.id, 'negative');
    expect(foreign.body.errors?.[0]).toMatchObject({
      message: 'Feedback not found',
      extensions: { code: 'FORBIDDEN' },
    });
    const unknown = await give(readOnly, '0123456789abcdef01234567', 'negative');
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: 'Feedback not found',
      extensions: { code: 'FORBIDDEN' },
    });

    const read = await stack.gql<{ feedbackItem: Item }>(GET, { k: key, id: item.id });
    expect(read.body.data!.feedbackItem).toMatchObject({
      sentiment: item.sentiment,
      sentimentSource: item.sentimentSource,
    });
  });

  test('when people give items different sentiments and statuses at the same instant, then each ends with one of each and the kept counts do not drift', async () => {
    const { key, orgId } = await stack.createKey();
    const items = await Promise.all([1, 2, 3].map((n) => add(key, `Report ${n}`, 'The weekly report is late again.')));
    const sentiments = ['positive', 'neutral', 'negative', 'positive', 'negative', 'neutral'];
    const statuses = ['read', 'archived', 'unread', 'read'];
    const answers = await Promise.all(
      items.flatMap((item) => [
        ...sentiments.map((sentiment) => give(key, item.id, sentiment)),
        ...statuses.map((status) => stack.gql(SET_STATUS, { k: key, id: item.id, s: status })),
      ]),
    );
    expect(answers.map((answer) => answer.body.errors)).toEqual(answers.map(() => undefined));

    const finals = await Promise.all(
      items.map(
        async (item) =>
          (await stack.gql<{ feedbackItem: Item & { status: string } }>(GET_WITH_STATUS, { k: key, id: item.id })).body
            .data!.feedbackItem,
      ),
    );
    expect(finals.every((final) => final.sentimentSource === 'person')).toBe(true);
    const expected: Record<string, number> = { positive: 0, neutral: 0, negative: 0, unread: 0, read: 0, archived: 0 };
    for (const final of finals) {
      expected[final.sentiment!] += 1;
      expected[final.status] += 1;
    }
    await eventually(
      async () => {
        const { insights, byStatus } = await counts(key);
        const now = { ...insights, ...byStatus };
        return Object.keys(expected).every((name) => now[name] === expected[name]);
      },
      20_000,
      'insights counting each item once, under its last sentiment and status',
    );
    const db = await stack.connect('feedback');
    expect((await recountOrganization(db, orgId)).drift).toBe(0);
  });
});
