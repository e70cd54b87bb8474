import type { FeedbackItem, FeedbackQuery } from '../src/core';
import { afterPositionIn, matchingItems } from '../src/core';

const at = (day: number) => new Date(Date.UTC(2026, 10, day));
const item = (n: number, fields: Partial<FeedbackItem> = {}): FeedbackItem => ({
  id: n.toString(16).padStart(24, '0'),
  orgId: 'org',
  source: 'email',
  title: `Item ${n}`,
  content: 'Nothing to see',
  author: null,
  email: null,
  sentiment: null,
  sentimentScore: null,
  sentimentSource: 'provided',
  status: 'unread',
  metadata: null,
  publishedDate: at(n),
  createdAt: at(n),
  updatedAt: at(n),
  ...fields,
});
const ids = (items: FeedbackItem[]) => items.map((one) => Number.parseInt(one.id, 16));
const query = (given: Partial<FeedbackQuery>): FeedbackQuery => ({ page: { skip: 0, take: 50 }, ...given });

const items = [
  item(1, { title: 'Export to CSV fails' }),
  item(2, { author: 'Ada EXPORTER', sentiment: 'negative', status: 'read' }),
  item(3, { email: 'export@example.com', themeIds: ['t1'], source: 'chat' }),
  item(4, { content: 'The expor t button', sentiment: 'positive' }),
  item(5, { orgId: 'other', title: 'export' }),
];

describe("a search's unindexed items, matched in process by the list's own filter", () => {
  test('when a search is given, then it matches title, content, author and email, ignoring case, of the organization only, newest first', () => {
    expect(ids(matchingItems('org', query({ search: 'EXPORT' }), items))).toEqual([3, 2, 1]);
  });

  test('when other filters are given, then an item must pass each, a missing sentiment counting as none', () => {
    expect(ids(matchingItems('org', query({}), items))).toEqual([4, 3, 2, 1]);
    expect(ids(matchingItems('org', query({ search: 'export', status: 'read' }), items))).toEqual([2]);
    expect(ids(matchingItems('org', query({ sentiment: 'negative' }), items))).toEqual([2]);
    expect(ids(matchingItems('org', query({ theme: 't1', source: 'chat' }), items))).toEqual([3]);
    expect(ids(matchingItems('org', query({ publishedAfter: at(2), publishedBefore: at(4) }), items))).toEqual([3, 2]);
  });

  test('when a cursor is given, then only the items after its position in the list order are kept', () => {
    const listed = matchingItems('org', query({}), items);
    expect(ids(afterPositionIn(listed, { createdAt: at(3), id: items[2].id }))).toEqual([2, 1]);
    const twin = item(6, { createdAt: at(3) });
    const tied = matchingItems('org', query({}), [...items, twin]);
    expect(ids(afterPositionIn(tied, { createdAt: at(3), id: twin.id }))).toEqual([3, 2, 1]);
  });
});
