import type { Page } from '../pagination';

export interface GroupPage<T> {
  items: T[];
  total: number;
  /** True when at least one more item follows the page. */
  hasMore: boolean;
}

/**
 * Pages of many groups from one ordered stream of rows (e.g. the feedback of a page of 50 contacts,
 * read with one query): each row is counted for every group it belongs to, and only the rows inside
 * a group's page are kept, so memory stays bounded by groups x (skip + take), whatever the totals.
 */
export async function groupedPages<T>(
  rows: AsyncIterable<T>,
  groupsOf: (row: T) => Iterable<string>,
  page: Page,
  /** Rows that count towards the total but cannot be on the page (e.g. before a cursor). */
  onPage: (row: T) => boolean = () => true,
): Promise<Map<string, GroupPage<T>>> {
  const pages = new Map<string, GroupPage<T> & { seen: number }>();
  for await (const row of rows) {
    for (const group of groupsOf(row)) {
      let entry = pages.get(group);
      if (!entry) pages.set(group, (entry = { items: [], total: 0, hasMore: false, seen: 0 }));
      entry.total += 1;
      if (!onPage(row)) continue;
      entry.seen += 1;
      if (entry.seen > page.skip && entry.items.length < page.take) entry.items.push(row);
      else if (entry.seen > page.skip + page.take) entry.hasMore = true;
    }
  }
  return pages;
}

export const EMPTY_GROUP_PAGE: GroupPage<never> = Object.freeze({
  items: [],
  total: 0,
  hasMore: false,
}) as GroupPage<never>;

/** Groups requests that only differ by the record they are about (same arguments), keeping their order. */
export function byArguments<K extends { args: unknown }>(keys: readonly K[]): Map<string, K[]> {
  const groups = new Map<string, K[]>();
  for (const key of keys) {
    const id = JSON.stringify(key.args);
    groups.set(id, [...(groups.get(id) ?? []), key]);
  }
  return groups;
}

/** The first row of each key, from rows in the order that decides (e.g. oldest first). */
export function firstByKey<T>(rows: Iterable<T>, keysOf: (row: T) => Iterable<string>): Map<string, T> {
  const first = new Map<string, T>();
  for (const row of rows) for (const key of keysOf(row)) if (!first.has(key)) first.set(key, row);
  return first;
}
