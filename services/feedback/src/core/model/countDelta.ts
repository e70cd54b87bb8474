/**
 * What the kept counts (see docs/scale.md) are made of: cells, each counting one organization's items
 * by status x sentiment for one source, contact email, account domain or UTC day, and the change a write
 * makes to them. Pure functions: the domain computes a change's delta from the item as written, the
 * outbox stores it with the change, and the count store applies it exactly once.
 */

export type CellScope = 'source' | 'email' | 'domain' | 'day';

export interface CellRef {
  scope: CellScope;
  orgId: string;
  /** The source, lower-cased email, email domain, or UTC day (YYYY-MM-DD). */
  key: string;
  /** The source of a day cell (days are kept per source, for insights filtered by source). */
  source?: string;
}

/** One cell's share of a change: `inc` by `status:sentiment` (no dot: stored as a key), and the newest publishedDate it adds. */
export interface CellChange {
  cell: CellRef;
  inc: Record<string, number>;
  newest?: Date;
}

export type CountDelta = CellChange[];

/** What of an item the counts look at. */
export interface CountedItem {
  orgId: string;
  source: string;
  status: string;
  sentiment?: string | null;
  emailLower?: string | null;
  emailDomain?: string | null;
  publishedDate: Date;
}

/** The sentiment of an item without one, in counts and insights. */
export const NO_SENTIMENT = 'none';

/** A status or sentiment as one segment of a field path (they are validated words; anything else is kept apart). */
const segment = (value: string) => (/^[a-z]+$/.test(value) ? value : 'other');

export const countPath = (status: string, sentiment: string | null | undefined) =>
  `${segment(status)}:${segment(sentiment ?? NO_SENTIMENT)}`;

/** The status and sentiment of a count path. */
export const splitCountPath = (path: string) => path.split(':') as [string, string];

/** One UTC day, the span of a day cell. */
export const DAY_MS = 86_400_000;

export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

export const cellKey = (cell: CellRef) => JSON.stringify([cell.scope, cell.orgId, cell.key, cell.source ?? null]);

/** The cells an item is counted in. */
export function cellsOf(item: CountedItem): CellRef[] {
  const { orgId } = item;
  const cells: CellRef[] = [
    { scope: 'source', orgId, key: item.source },
    { scope: 'day', orgId, key: utcDay(item.publishedDate), source: item.source },
  ];
  if (item.emailLower) cells.push({ scope: 'email', orgId, key: item.emailLower });
  if (item.emailDomain) cells.push({ scope: 'domain', orgId, key: item.emailDomain });
  return cells;
}

/** Adds `n` of `item` to `delta` (merging cells it already has). */
export function addTo(delta: Map<string, CellChange>, item: CountedItem, n: number): void {
  const path = countPath(item.status, item.sentiment);
  for (const cell of cellsOf(item)) {
    const key = cellKey(cell);
    const change = delta.get(key) ?? { cell, inc: {} };
    delta.set(key, change);
    change.inc[path] = (change.inc[path] ?? 0) + n;
    if (
      n > 0 &&
      (cell.scope === 'email' || cell.scope === 'domain') &&
      (!change.newest || item.publishedDate > change.newest)
    ) {
      change.newest = item.publishedDate;
    }
  }
}

/**
 * The change to the counts when an item goes from `before` to `after` (`null` before a creation or after
 * a removal). Entry point for every writer of items: create, status change, removal, import, merge.
 */
export function deltaOf(before: CountedItem | null, after: CountedItem | null): CountDelta {
  return sumOf([[before, after]]);
}

/** The summed delta of many changes (e.g. an import batch), one entry per cell. */
export function sumOf(changes: Iterable<[CountedItem | null, CountedItem | null]>): CountDelta {
  const delta = new Map<string, CellChange>();
  for (const [before, after] of changes) {
    if (before) addTo(delta, before, -1);
    if (after) addTo(delta, after, 1);
  }
  for (const change of delta.values()) {
    for (const [path, n] of Object.entries(change.inc)) if (n === 0) delete change.inc[path];
  }
  return [...delta.values()].filter((change) => Object.keys(change.inc).length > 0 || change.newest);
}
