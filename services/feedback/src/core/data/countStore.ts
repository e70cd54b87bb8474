import { mongo, type Collection, type Connection } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared/database';
import {
  cellKey,
  splitCountPath,
  type CellChange,
  type CellRef,
  type CellScope,
  type CountDelta,
} from '../model/countDelta';
import { dayKeys, distinctValues } from './ferretDbV1';

/** The collection of the kept counts. */
const CELLS = 'feedback_counts';

/** One kept cell (see model/countDelta): counts by `c.<status>.<sentiment>`. */
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
  /** Day cells: how many changes were ever applied (a feature counting days from their items compares it). */
  v?: number;
  /** Day cells: when a change was last applied (features find the days that changed since they looked). */
  changedAt?: Date;
}

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

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
    this.collection = connection.collection<CellDocument>(CELLS);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, scope: 1, key: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ orgId: 1, scope: 1, changedAt: 1 }, INDEX_BUILD_TIME_LIMIT);
    await this.collection.createIndex({ scope: 1, orgId: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * The organizations whose items are counted: those with a source cell (one per organization and source).
   * The background workers visit these; a `$group` over the items read every item of every organization
   * on each pass (on the embedded engine 100,000 items took seconds, every 20 s). Items written around the
   * API are counted by `counts recount`, as for everything else the cells serve.
   */
  async organizations(): Promise<string[]> {
    return (await distinctValues(this.connection, CELLS, 'orgId', { scope: 'source' }, DEFAULT_MAX_TIME_MS)).sort();
  }

  /** Applies `delta` as the change `changeId`, once. */
  async apply(changeId: string, delta: CountDelta, now = new Date()): Promise<void> {
    for (const chunk of inChunks(delta)) {
      let todo = chunk;
      // A cell created by two changes at once: the loser's upsert meets the winner's insert; again.
      for (let fruitless = 0; todo.length > 0;) {
        const left = await this.applyOnce(changeId, todo, now);
        fruitless = left.length < todo.length ? 0 : fruitless + 1;
        if (fruitless === 5) throw new Error('kept counts: a cell could not be written');
        todo = left;
      }
    }
  }

  /** Returns the changes not applied yet (their cells do not list the change). */
  private async applyOnce(changeId: string, changes: CellChange[], now: Date): Promise<CellChange[]> {
    // One update per cell in one bulk write (the cells of one delta are distinct, so their order does
    // not matter): each update is still a single-document write that applies the change or not. A day
    // cell's version and time of change tell the features that count days from their items (themes)
    // which days to count again.
    let clashed = false;
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
              ...(cell.scope === 'day' ? { $set: { changedAt: now } } : {}),
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
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
      clashed = true;
    }
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
      await this.collection.updateMany({ _id: { $in: ids } }, { $pull: { pending: changeId } });
    }
  }

  /** Sets the newest publishedDate of a cell (after a removal, from the items left). */
  async setNewest(cell: CellRef, newest: Date | null): Promise<void> {
    await this.collection.updateOne({ _id: cellKey(cell) }, { $set: { newest } });
  }

  /**
   * An organization's day cells changed at `since` or later (their key, source and version), at most
   * `limit`: what a feature counting days from their items (themes) counts again.
   */
  daysChangedSince(
    orgId: string,
    since: Date,
    limit: number,
  ): Promise<Array<Pick<CellDocument, '_id' | 'key' | 'source'> & { v: number }>> {
    return this.collection
      .find<Pick<CellDocument, '_id' | 'key' | 'source'> & { v: number }>(
        { orgId, scope: 'day', changedAt: { $gte: since } },
        { projection: { key: 1, source: 1, v: 1 }, limit, maxTimeMS: DEFAULT_MAX_TIME_MS },
      )
      .toArray();
  }

  /** The cells of an organization in one scope; `keys` narrows them (a range for days). */
  find(
    orgId: string,
    scope: CellScope,
    keys?: { in: string[] } | { from: string; to: string },
  ): Promise<CellDocument[]> {
    const key =
      keys === undefined ? {} : 'in' in keys ? { key: { $in: keys.in } } : { key: dayKeys(keys.from, keys.to) };
    return this.collection
      .find({ orgId, scope, ...key }, { projection: { pending: 0 }, maxTimeMS: DEFAULT_MAX_TIME_MS })
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
    figures: Pick<CellDocument, 'c' | 'newest'> | null,
    previous?: Pick<CellDocument, 'c'>,
    now = new Date(),
  ): Promise<void> {
    if (figures === null) {
      await this.collection.deleteOne({ _id: cellKey(cell) });
      return;
    }
    const counts: Record<string, number> = {};
    for (const [status, bySentiment] of Object.entries(previous?.c ?? {}))
      for (const sentiment of Object.keys(bySentiment)) counts[`c.${status}.${sentiment}`] = 0;
    for (const [status, bySentiment] of Object.entries(figures.c))
      for (const [sentiment, n] of Object.entries(bySentiment)) counts[`c.${status}.${sentiment}`] = n;
    await this.collection.updateOne(
      { _id: cellKey(cell) },
      {
        $set: { ...counts, newest: figures.newest ?? null, ...(cell.scope === 'day' ? { changedAt: now } : {}) },
        // A day repaired is a day changed: the features that count days from their items count it again.
        ...(cell.scope === 'day' ? { $inc: { v: 1 } } : {}),
        $setOnInsert: {
          orgId: cell.orgId,
          scope: cell.scope,
          key: cell.key,
          ...(cell.source !== undefined ? { source: cell.source } : {}),
        },
      },
      { upsert: true },
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
