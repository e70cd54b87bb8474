import { mongo, type Collection, type Connection } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared/database';
import {
  DAY_MS,
  cellKey,
  splitCountPath,
  type CellChange,
  type CellRef,
  type CellScope,
  type CountDelta,
} from '../domain/countDelta';

/** One kept cell (see domain/countDelta): counts by `c.<status>.<sentiment>`. */
export interface CellDocument {
  _id: string;
  orgId: string;
  scope: CellScope;
  key: string;
  source?: string;
  c: Record<string, Record<string, number>>;
  /** Newest publishedDate of the cell's items (email and domain cells). */
  newest?: Date | null;
  /** Ids of the changes applied to this cell whose change is not yet closed: what makes a repeat a no-op. */
  pending?: string[];
  /**
   * Day cells: the day's items per theme, as counted from the items when the cell was last refreshed (see
   * data/themeCounts). A list rather than an object keyed by theme id: FerretDB v1 takes the `$set` of an
   * embedded document whose keys changed but whose values did not for no change (measured), a list it compares whole.
   */
  t?: ThemeRow[];
  /** Day cells: changes applied since `t` was counted (a change or a theme assignment sets it, a refresh clears it). */
  dirty?: boolean;
  /** Day cells: how many changes were ever applied (a refresh clears `dirty` only when none came while it counted). */
  v?: number;
}

/** Items and negative items by theme id. */
export type ThemeFigures = Record<string, { count: number; negative: number }>;

export interface ThemeRow {
  theme: string;
  count: number;
  negative: number;
}

const themeRows = (figures: ThemeFigures): ThemeRow[] =>
  Object.entries(figures)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([theme, { count, negative }]) => ({ theme, count, negative }));

/** A day cell's theme figures. */
export const themeFiguresOf = (cell: Pick<CellDocument, 't'> | undefined): ThemeFigures =>
  Object.fromEntries((cell?.t ?? []).map(({ theme, count, negative }) => [theme, { count, negative }]));

const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;
/** Day ranges up to this long are read as a list of their days (two years and their previous period). */
const MAX_LISTED_DAYS = 1_500;

/**
 * The condition on day cells' keys for the UTC days [from, to): the list of those days when both ends are
 * days and the range is not longer than MAX_LISTED_DAYS, else the range. A list is equalities, which every
 * engine reads from the (organization, scope, key) index; the embedded engine reads a string range by
 * reading every cell of the organization (its push-down takes no string ranges: a JSON text of a string
 * does not sort as the string).
 */
export function dayKeys(from: string, to: string): { $in: string[] } | { $gte: string; $lt: string } {
  if (!DAY_KEY.test(from) || !DAY_KEY.test(to)) return { $gte: from, $lt: to };
  const start = Date.parse(`${from}T00:00:00.000Z`);
  const end = Date.parse(`${to}T00:00:00.000Z`);
  if (!(end > start) || (end - start) / DAY_MS > MAX_LISTED_DAYS) return { $gte: from, $lt: to };
  const days: string[] = [];
  for (let day = start; day < end; day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return { $in: days };
}

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

/**
 * Cell writes of this process, one at a time per database. MongoDB applies each update atomically, but
 * FerretDB v1 reads, changes and writes a document back without isolation, so two concurrent `$inc` of
 * one cell keep only one of them (measured: 40 concurrent increments of one document left it at 1).
 * Serialised here, the counts are exact on both within one process; across processes on the embedded
 * engine (a CLI import beside a running service) `counts recount` repairs what collided.
 */
const writeQueues = new WeakMap<object, Map<string, Promise<unknown>>>();
function serially<T>(connection: Connection, write: () => Promise<T>): Promise<T> {
  const client = connection.getClient();
  const queues = writeQueues.get(client) ?? new Map<string, Promise<unknown>>();
  writeQueues.set(client, queues);
  const previous = queues.get(connection.name) ?? Promise.resolve();
  const next = previous.then(write, write);
  const settled = next.catch(() => undefined);
  queues.set(connection.name, settled);
  void settled.then(() => {
    if (queues.get(connection.name) === settled) queues.delete(connection.name);
  });
  return next;
}

/**
 * Cells per write command: an import batch's thousands of cells go in bulk writes of this many updates
 * (one round trip each, and each command short enough for a service request's time limit).
 */
const CELLS_PER_WRITE = 500;

function* inChunks<T>(items: T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += CELLS_PER_WRITE) yield items.slice(start, start + CELLS_PER_WRITE);
}

/**
 * Whether a bulk write failed on duplicate keys alone: an upsert met a cell that lists the change already,
 * or one another change created meanwhile.
 */
function onlyDuplicateKeys(error: unknown): boolean {
  if (!(error instanceof mongo.MongoBulkWriteError)) return isDuplicateKey(error);
  const failures = [error.writeErrors].flat();
  return error.err === undefined && failures.length > 0 && failures.every(isDuplicateKey);
}

/**
 * The kept counts of the feedback service. Each cell update is a single-document write that applies a
 * change only when the cell does not list it among its pending changes, and lists it in the same write:
 * applying the same change twice (its writer and the outbox relay racing, or a retry) changes nothing.
 * A change leaves the pending list only once its outbox intent is marked counted (`release`), after
 * which nothing applies it again.
 */
export class CountStore {
  private readonly collection: Collection<CellDocument>;

  constructor(private readonly connection: Connection) {
    this.collection = connection.collection<CellDocument>('feedback_counts');
  }

  private write<T>(operation: () => Promise<T>): Promise<T> {
    return serially(this.connection, operation);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, scope: 1, key: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, scope: 1, dirty: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ scope: 1, orgId: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * The organizations whose items are counted: those with a source cell (one per organization and source).
   * The background workers visit these; a `$group` over the items read every item of every organization
   * on each pass (on the embedded engine 100,000 items took seconds, every 20 s). Items written around the
   * API are counted by `counts recount`, as for everything else the cells serve. A `$group`, not
   * `distinct`: FerretDB v1's distinct takes no time limit.
   */
  async organizations(): Promise<string[]> {
    const rows = await this.collection
      .aggregate<{ _id: string }>([{ $match: { scope: 'source' } }, { $group: { _id: '$orgId' } }], {
        maxTimeMS: DEFAULT_MAX_TIME_MS,
      })
      .toArray();
    return rows.map((row) => row._id).sort();
  }

  /** Applies `delta` as the change `changeId`, once. */
  async apply(changeId: string, delta: CountDelta): Promise<void> {
    for (const chunk of inChunks(delta)) {
      let todo = chunk;
      // A cell created by two changes at once: the loser's upsert meets the winner's insert; again.
      for (let fruitless = 0; todo.length > 0;) {
        const left = await this.applyOnce(changeId, todo);
        fruitless = left.length < todo.length ? 0 : fruitless + 1;
        if (fruitless === 5) throw new Error('kept counts: a cell could not be written');
        todo = left;
      }
    }
  }

  /** Returns the changes not applied yet (their cells do not list the change). */
  private async applyOnce(changeId: string, changes: CellChange[]): Promise<CellChange[]> {
    // One update per cell in one bulk write (the cells of one delta are distinct, so their order does
    // not matter): each update is still a single-document write that applies the change or not. A day's
    // theme figures are counted from its items: a change to a day cell marks the day for a recount.
    const clashed = await this.write(async () => {
      try {
        await this.collection.bulkWrite(
          changes.map(({ cell, inc, newest }) => ({
            updateOne: {
              filter: { _id: cellKey(cell), pending: { $ne: changeId } },
              update: {
                $inc: {
                  ...Object.fromEntries(
                    Object.entries(inc).map(([path, n]) => [`c.${splitCountPath(path).join('.')}`, n]),
                  ),
                  ...(cell.scope === 'day' ? { v: 1 } : {}),
                },
                $push: { pending: changeId },
                ...(cell.scope === 'day' ? { $set: { dirty: true } } : {}),
                $setOnInsert: {
                  orgId: cell.orgId,
                  scope: cell.scope,
                  key: cell.key,
                  ...(cell.source !== undefined ? { source: cell.source } : {}),
                },
                ...(newest ? { $max: { newest } } : {}),
              },
              upsert: true,
            },
          })),
          { ordered: false },
        );
        return false;
      } catch (error) {
        if (!onlyDuplicateKeys(error)) throw error;
        return true;
      }
    });
    if (!clashed) return [];
    // Which updates were applied is read from the cells, not from the error: FerretDB v1 stops a bulk
    // write at its first failure (ordered or not) and reports it at another position.
    const applied = new Set(
      (
        await this.collection
          .find(
            { _id: { $in: changes.map((change) => cellKey(change.cell)) }, pending: changeId },
            { projection: { _id: 1 } },
          )
          .toArray()
      ).map((doc) => doc._id),
    );
    return changes.filter((change) => !applied.has(cellKey(change.cell)));
  }

  /** The change is closed (its intent is marked counted): it leaves the cells' pending lists. */
  async release(changeId: string, delta: CountDelta): Promise<void> {
    for (const chunk of inChunks(delta)) {
      const ids = chunk.map(({ cell }) => cellKey(cell));
      await this.write(() => this.collection.updateMany({ _id: { $in: ids } }, { $pull: { pending: changeId } }));
    }
  }

  /** Sets the newest publishedDate of a cell (after a removal, from the items left). */
  async setNewest(cell: CellRef, newest: Date | null): Promise<void> {
    await this.write(() => this.collection.updateOne({ _id: cellKey(cell) }, { $set: { newest } }));
  }

  /** Marks an organization's day cells (those of `days`, or all) for a recount of their theme figures. */
  async markDays(orgId: string, days?: string[]): Promise<void> {
    if (days?.length === 0) return;
    await this.write(() =>
      this.collection.updateMany(
        { orgId, scope: 'day', ...(days ? { key: { $in: days } } : {}) },
        { $set: { dirty: true }, $inc: { v: 1 } },
      ),
    );
  }

  /** Day cells whose theme figures are to be counted again (at most `limit`). */
  dirtyDays(
    orgId: string,
    limit: number,
  ): Promise<Array<Pick<CellDocument, '_id' | 'key' | 'source'> & { v: number }>> {
    // A marked cell always has `v`: every mark increments it.
    return this.collection
      .find<Pick<CellDocument, '_id' | 'key' | 'source'> & { v: number }>(
        { orgId, scope: 'day', dirty: true },
        { projection: { key: 1, source: 1, v: 1 }, limit, maxTimeMS: DEFAULT_MAX_TIME_MS },
      )
      .toArray();
  }

  /**
   * Stores days' theme figures counted from their items after reading each cell at version `v`, in one
   * bulk write: a mark is cleared only when no change came meanwhile (a cell that changed keeps its mark
   * and gets the figures anyway, the freshest it has; the next refresh counts it again).
   */
  async setThemes(cells: Array<{ id: string; v: number; t: ThemeFigures }>): Promise<void> {
    if (cells.length === 0) return;
    await this.write(async () => {
      const cleared = await this.collection.bulkWrite(
        cells.map(({ id, v, t }) => ({
          updateOne: { filter: { _id: id, v }, update: { $set: { t: themeRows(t), dirty: false } } },
        })),
        { ordered: false },
      );
      if (cleared.matchedCount === cells.length) return;
      const moved = await this.collection
        .find(
          { _id: { $in: cells.map((cell) => cell.id) }, dirty: true },
          { projection: { _id: 1 }, maxTimeMS: DEFAULT_MAX_TIME_MS },
        )
        .toArray();
      const changed = new Set(moved.map((doc) => doc._id));
      const updates = cells
        .filter((cell) => changed.has(cell.id))
        .map(({ id, t }) => ({ updateOne: { filter: { _id: id }, update: { $set: { t: themeRows(t) } } } }));
      if (updates.length > 0) await this.collection.bulkWrite(updates, { ordered: false });
    });
  }

  /** The cells of an organization in one scope (their counts, without the days' theme figures); `keys` narrows them (a range for days). */
  find(
    orgId: string,
    scope: CellScope,
    keys?: { in: string[] } | { from: string; to: string },
  ): Promise<CellDocument[]> {
    const key =
      keys === undefined ? {} : 'in' in keys ? { key: { $in: keys.in } } : { key: dayKeys(keys.from, keys.to) };
    return this.collection
      .find({ orgId, scope, ...key }, { projection: { pending: 0, t: 0 }, maxTimeMS: DEFAULT_MAX_TIME_MS })
      .toArray();
  }

  /** The theme figures of an organization's day cells in [from, to) (UTC days). */
  dayThemes(orgId: string, from: string, to: string): Promise<Array<Pick<CellDocument, 'key' | 'source' | 't'>>> {
    return this.collection
      .find<Pick<CellDocument, 'key' | 'source' | 't'>>(
        { orgId, scope: 'day', key: dayKeys(from, to) },
        { projection: { _id: 0, key: 1, source: 1, t: 1 }, maxTimeMS: DEFAULT_MAX_TIME_MS },
      )
      .toArray();
  }

  /** Cells by reference, for a page of contacts or accounts (ids are computed, so this is a key lookup). */
  byRefs(refs: CellRef[]): Promise<CellDocument[]> {
    if (refs.length === 0) return Promise.resolve([]);
    return this.collection
      .find({ _id: { $in: [...new Set(refs.map(cellKey))] } }, { projection: { pending: 0 } })
      .toArray();
  }

  /** Every cell of an organization (a recount compares them with its own). */
  allOf(orgId: string): Promise<CellDocument[]> {
    return this.collection.find({ orgId }, { projection: { pending: 0 } }).toArray();
  }

  /**
   * Replaces a cell's figures (a recount's repair); `null` removes the cell. The counts are set count by
   * count, those of `previous` that are gone set to 0: FerretDB v1 takes the `$set` of an embedded document
   * whose keys changed but whose values did not (an item moved from positive to negative) for no change.
   */
  async replace(
    cell: CellRef,
    figures: (Pick<CellDocument, 'c' | 'newest'> & { t?: ThemeFigures }) | null,
    previous?: Pick<CellDocument, 'c'>,
  ): Promise<void> {
    if (figures === null) {
      await this.write(() => this.collection.deleteOne({ _id: cellKey(cell) }));
      return;
    }
    const counts: Record<string, number> = {};
    for (const [status, bySentiment] of Object.entries(previous?.c ?? {}))
      for (const sentiment of Object.keys(bySentiment)) counts[`c.${status}.${sentiment}`] = 0;
    for (const [status, bySentiment] of Object.entries(figures.c))
      for (const [sentiment, n] of Object.entries(bySentiment)) counts[`c.${status}.${sentiment}`] = n;
    await this.write(() =>
      this.collection.updateOne(
        { _id: cellKey(cell) },
        {
          $set: {
            ...counts,
            newest: figures.newest ?? null,
            ...(cell.scope === 'day' ? { t: themeRows(figures.t ?? {}), dirty: true } : {}),
          },
          // A day's theme figures repaired from a read that a theme computation may have overtaken: marked, so the theme worker counts them again.
          ...(cell.scope === 'day' ? { $inc: { v: 1 } } : {}),
          $setOnInsert: {
            orgId: cell.orgId,
            scope: cell.scope,
            key: cell.key,
            ...(cell.source !== undefined ? { source: cell.source } : {}),
          },
        },
        { upsert: true },
      ),
    );
  }
}

/** Sum of a cell's counts that match a status and sentiment (either unset: all). */
export function cellCount(doc: Pick<CellDocument, 'c'>, status?: string, sentiment?: string): number {
  let total = 0;
  for (const [s, bySentiment] of Object.entries(doc.c ?? {})) {
    if (status !== undefined && s !== status) continue;
    for (const [m, n] of Object.entries(bySentiment)) if (sentiment === undefined || m === sentiment) total += n;
  }
  return total;
}
