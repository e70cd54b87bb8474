import { Types } from 'mongoose';
import { recountOrganization } from '@fi/feedback';
import { startStack, type Stack } from './helpers/stack';

const PERIOD =
  'total bySentiment { positive neutral negative none } byStatus { unread read archived } bySource { source count } series { start count negative positive negativeShare }';
const INSIGHTS = `query($apiKey: String!, $from: DateTime!, $to: DateTime!, $source: String, $interval: String) {
  feedbackInsights(apiKey: $apiKey, from: $from, to: $to, source: $source, interval: $interval) {
    from to interval ${PERIOD} previous { from to ${PERIOD} } topTerms { term count } } }`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 2, day, hour));

/** An organization with known items: March 1-3 2026 (the range) and February 26-28 (the previous period). */
async function seeded(orgId: string) {
  const items: Array<[Date, string | null, string, string, string]> = [
    [at(1), 'negative', 'unread', 'email', 'The export keeps failing and the export file is empty'],
    [at(1), 'positive', 'read', 'email', 'Lovely support team'],
    [at(2), 'negative', 'unread', 'api', 'Export failing again, refund please'],
    [at(2), 'neutral', 'archived', 'api', 'Question about invoices'],
    [at(3), null, 'unread', 'email', 'Something'],
    [at(3, 23), 'negative', 'read', 'email', 'Refund for the broken export'],
    [new Date(Date.UTC(2026, 1, 27, 10)), 'negative', 'unread', 'email', 'Old complaint'],
    [new Date(Date.UTC(2026, 2, 4, 0)), 'positive', 'unread', 'email', 'Outside the range (to is exclusive)'],
  ];
  const db = await stack.connect('feedback');
  await db.collection('feedback_items').insertMany(
    items.map(([date, sentiment, status, source, content]) => ({
      _id: new Types.ObjectId(),
      orgId,
      source,
      title: content.split(' ').slice(0, 3).join(' '),
      content,
      ...(sentiment ? { sentiment } : {}),
      status,
      publishedDate: date,
      createdAt: date,
    })),
  );
  // Written around the API: counted as an upgrade counts items stored before kept counts.
  await recountOrganization(db, orgId);
}

type Insights = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function insights(apiKey: string, variables: Record<string, unknown>) {
  return stack.gql<{ feedbackInsights: Insights }>(INSIGHTS, {
    apiKey,
    from: '2026-03-01T00:00:00.000Z',
    to: '2026-03-04T00:00:00.000Z',
    ...variables,
  });
}

describe('feedbackInsights', () => {
  test('when an organization has known items, then every figure is exact', async () => {
    const { key, orgId } = await stack.createKey();
    await seeded(orgId);
    const response = await insights(key, {});
    expect(response.body.errors).toBeUndefined();
    const result = response.body.data!.feedbackInsights;
    expect(result).toMatchObject({
      interval: 'day',
      total: 6,
      bySentiment: { positive: 1, neutral: 1, negative: 3, none: 1 },
      byStatus: { unread: 3, read: 2, archived: 1 },
      bySource: [
        { source: 'email', count: 4 },
        { source: 'api', count: 2 },
      ],
      series: [
        { start: '2026-03-01T00:00:00.000Z', count: 2, negative: 1, positive: 1, negativeShare: 0.5 },
        { start: '2026-03-02T00:00:00.000Z', count: 2, negative: 1, positive: 0, negativeShare: 0.5 },
        { start: '2026-03-03T00:00:00.000Z', count: 2, negative: 1, positive: 0, negativeShare: 0.5 },
      ],
      previous: {
        from: '2026-02-26T00:00:00.000Z',
        to: '2026-03-01T00:00:00.000Z',
        total: 1,
        bySentiment: { negative: 1 },
      },
    });
    expect(result.previous.series).toHaveLength(3);
    // "export" is in all three negative items, "failing" and "refund" in two; terms of one item, stop
    // words and the items outside the range or not negative are left out.
    expect(result.topTerms).toEqual([
      { term: 'export', count: 3 },
      { term: 'failing', count: 2 },
      { term: 'refund', count: 2 },
    ]);

    const weekly = (await insights(key, { interval: 'week', source: 'api' })).body.data!.feedbackInsights;
    expect(weekly).toMatchObject({
      total: 2,
      series: [{ start: '2026-03-01T00:00:00.000Z', count: 2, negative: 1, positive: 0, negativeShare: 0.5 }],
    });
  });

  test('when the range has a time of day, then its whole days come from the kept day cells and only its partial first and last day from items', async () => {
    const { key, orgId } = await stack.createKey();
    await seeded(orgId);
    // Written around the API and not recounted: only a read of the items sees them.
    await (await stack.connect('feedback')).collection('feedback_items').insertMany(
      [new Date(Date.UTC(2026, 2, 2, 10)), new Date(Date.UTC(2026, 2, 1, 8))].map((date) => ({
        _id: new Types.ObjectId(),
        orgId,
        source: 'email',
        title: 'Uncounted',
        content: 'Uncounted',
        sentiment: 'negative',
        status: 'unread',
        publishedDate: date,
        createdAt: date,
      })),
    );

    const response = await insights(key, { from: '2026-03-01T06:00:00.000Z', to: '2026-03-03T18:00:00.000Z' });

    expect(response.body.errors).toBeUndefined();
    // March 1 from 06:00 (its two items and the uncounted one, from the items), March 2 (its cell: the
    // uncounted item of that whole day is not in it), March 3 until 18:00 (one item; 23:00 is outside).
    expect(response.body.data!.feedbackInsights).toMatchObject({
      total: 6,
      bySentiment: { positive: 1, neutral: 1, negative: 3, none: 1 },
      series: [
        { start: '2026-03-01T06:00:00.000Z', count: 3, negative: 2, positive: 1 },
        { start: '2026-03-02T06:00:00.000Z', count: 2, negative: 1, positive: 0 },
        { start: '2026-03-03T06:00:00.000Z', count: 1, negative: 0, positive: 0 },
      ],
    });
  });

  test('when a partial day holds more items than a page of its read, with many at the same instant, then each is counted once', async () => {
    const { key, orgId } = await stack.createKey();
    // 2,101 items at three instants (pages of 2,000 end inside a group of equal dates), one before the range.
    const instants = [10, 11, 12].map((hour) => new Date(Date.UTC(2026, 2, 5, hour)));
    const dates = [...Array.from({ length: 2_101 }, (_, i) => instants[i % 3]), new Date(Date.UTC(2026, 2, 5, 9))];
    await (await stack.connect('feedback')).collection('feedback_items').insertMany(
      dates.map((date, i) => ({
        _id: new Types.ObjectId(),
        orgId,
        source: i % 2 ? 'api' : 'email',
        title: `Item ${i}`,
        content: 'Paged',
        sentiment: i % 4 === 0 ? 'negative' : 'positive',
        status: 'unread',
        publishedDate: date,
        createdAt: date,
      })),
    );

    const response = await insights(key, { from: '2026-03-05T09:30:00.000Z', to: '2026-03-06T00:00:00.000Z' });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.feedbackInsights).toMatchObject({
      total: 2_101,
      bySentiment: { negative: 526, positive: 1_575 },
      bySource: [
        { source: 'email', count: 1_051 },
        { source: 'api', count: 1_050 },
      ],
      series: [{ start: '2026-03-05T09:30:00.000Z', count: 2_101, negative: 526, positive: 1_575 }],
    });
  });

  test('when the interval is month, then points start on the same day of each calendar month (the last day when shorter)', async () => {
    const { key, orgId } = await stack.createKey();
    await seeded(orgId);
    const response = await insights(key, {
      interval: 'month',
      from: '2026-01-31T00:00:00.000Z',
      to: '2026-04-15T00:00:00.000Z',
    });
    expect(response.body.errors).toBeUndefined();
    const result = response.body.data!.feedbackInsights;
    expect(result.series.map((p: { start: string; count: number }) => [p.start, p.count])).toEqual([
      ['2026-01-31T00:00:00.000Z', 1],
      ['2026-02-28T00:00:00.000Z', 7],
      ['2026-03-31T00:00:00.000Z', 0],
    ]);
  });

  test('when negative feedback is full of filler words, then top terms are the words and phrases that say what is wrong', async () => {
    const { key, orgId } = await stack.createKey();
    const db = await stack.connect('feedback');
    const texts = [
      'Our new team member says the CSV export takes a minute and fails',
      'Two days ago the CSV export failed again for the whole team',
      'The new CSV export takes ages, our team waits every minute',
      'Dark mode resets after login, our team is annoyed',
      'Dark mode is unreadable for the team since the new release',
    ];
    await db.collection('feedback_items').insertMany(
      texts.map((content) => ({
        _id: new Types.ObjectId(),
        orgId,
        source: 'api',
        title: 'Feedback',
        content,
        sentiment: 'negative',
        status: 'unread',
        publishedDate: at(2),
        createdAt: at(2),
      })),
    );
    const terms = (await insights(key, {})).body.data!.feedbackInsights.topTerms.map((t: { term: string }) => t.term);
    expect(terms.slice(0, 2)).toEqual(['CSV export', 'dark mode']);
    // One term for every inflection, shown as written most often.
    expect(terms.filter((term: string) => term.startsWith('fail'))).toHaveLength(1);
    for (const filler of ['new', 'team', 'ago', 'takes', 'minute', 'feedback']) expect(terms).not.toContain(filler);
  });

  test('when the range holds nothing, then every count is zero and the series still has its points', async () => {
    const { key } = await stack.createKey();
    const result = (await insights(key, {})).body.data!.feedbackInsights;
    expect(result).toMatchObject({
      total: 0,
      bySentiment: { positive: 0, neutral: 0, negative: 0, none: 0 },
      bySource: [],
      topTerms: [],
    });
    expect(result.series.map((p: { count: number; negativeShare: number }) => [p.count, p.negativeShare])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  test.each([
    ['from after to', { from: '2026-03-04T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' }, 'from must be before to'],
    ['an empty range', { to: '2026-03-01T00:00:00.000Z' }, 'from must be before to'],
    ['a range over 366 days', { to: '2027-03-03T00:00:00.000Z' }, 'at most 366 days'],
    ['an unknown interval', { interval: 'year' }, 'interval must be one of day, week, month'],
  ])('when the request has %s, then BAD_REQUEST says so', async (_, variables, message) => {
    const { key } = await stack.createKey();
    const response = await insights(key, variables);
    expect(response.body.errors?.[0].message).toContain(message);
    expect(response.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  test('when another organization has feedback, then it is never counted', async () => {
    const other = await stack.createKey();
    await seeded(other.orgId);
    const { key } = await stack.createKey();
    expect((await insights(key, {})).body.data!.feedbackInsights.total).toBe(0);
    expect((await insights(other.key, {})).body.data!.feedbackInsights.total).toBe(6);
  });
});
