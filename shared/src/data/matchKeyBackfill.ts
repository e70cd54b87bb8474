import type { Model, Types } from 'mongoose';
import type { KeysetBackfill } from './backfill';

/**
 * How a service computes the match keys of its records: the very function it applies at creation and
 * import, so a backfilled record is indistinguishable from one stored by the current version.
 */
export interface MatchKeyRule<D, S extends keyof D, K extends keyof D> {
  /** The record's fields the keys are computed from. */
  sources: readonly S[];
  /** Every key the function returns: one it returns but this list lacks fails to compile. */
  keys: Record<NoInfer<K>, true>;
  keysOf: (record: Pick<D, S>) => Pick<D, K>;
}

/** A record as the backfill reads it: its id, the fields its keys come from, and the keys it has. */
export type KeyedRecord = { _id: Types.ObjectId } & Record<string, unknown>;

/** Writes in flight at once: enough to hide round trips on MongoDB, few enough for a server that serializes writes. */
const WRITE_CONCURRENCY = 8;

/**
 * One service's match-key backfill over the records of one organization (or of every organization),
 * as `runKeysetBackfill` drives it. A key that is absent means "never computed" (every writer of the
 * current version stores each key, as null when there is nothing to match), so a record needs the
 * backfill when any of its keys is absent, and gets exactly those.
 *
 * No operation lasts longer than one page read or one record's write, on either server:
 * - Reads are keyset pages (`_id` after the last one, ascending, `limit` = batch; see
 *   `runKeysetBackfill`). MongoDB answers each from the `_id` index, so a whole run reads every record once.
 * - Writes are one conditional update per record (`{ _id, key: { $exists: false } }` for each key it
 *   writes), so a key written meanwhile by anyone is never overwritten, and each write is one short
 *   operation with its own time limit, however large the collection.
 * FerretDB v1 pushes down nothing but `_id`, so it scans the collection for each page; the embedded
 * build finds each conditional write's record by the `_id` index (stock v1.24.2 scans for it too).
 */
export class MatchKeyBackfill<
  D extends { _id: Types.ObjectId; orgId: string },
  S extends keyof D & string,
  K extends keyof D & string,
> implements KeysetBackfill<KeyedRecord> {
  private readonly keys: K[];
  private readonly projection: Record<string, 1>;
  /** Records of the organization (or of every organization) that lack at least one key. */
  private readonly missing: Record<string, unknown>;

  constructor(
    private readonly model: Model<D>,
    private readonly rule: MatchKeyRule<D, S, K>,
    orgId: string | undefined,
  ) {
    this.keys = Object.keys(rule.keys) as K[];
    this.projection = Object.fromEntries([...rule.sources, ...this.keys].map((field) => [field, 1]));
    this.missing = {
      ...(orgId === undefined ? {} : { orgId }),
      $or: this.keys.map((key) => ({ [key]: { $exists: false } })),
    };
  }

  count(): Promise<number> {
    return this.model.collection.countDocuments(this.missing);
  }

  /** The next `limit` records lacking a key after `after` in `_id` order, with their sources and present keys. */
  next(after: Types.ObjectId | null, limit: number): Promise<KeyedRecord[]> {
    const filter = after ? { ...this.missing, _id: { $gt: after } } : this.missing;
    return this.model.collection
      .find(filter, { projection: this.projection, sort: { _id: 1 }, limit })
      .toArray() as Promise<KeyedRecord[]>;
  }

  /** Writes the absent keys of records as read; returns how many were written (the others gained a key meanwhile). */
  async write(records: readonly KeyedRecord[]): Promise<number> {
    let next = 0;
    let written = 0;
    // The first failure stops the batch once the writes in flight end, so none outlives the command.
    let failure: { error: unknown } | undefined;
    const worker = async () => {
      while (next < records.length && !failure) {
        try {
          if (await this.writeOne(records[next++])) written += 1;
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, records.length) }, worker));
    if (failure) throw failure.error;
    return written;
  }

  private async writeOne(record: KeyedRecord): Promise<boolean> {
    const computed = this.rule.keysOf(record as unknown as Pick<D, S>);
    const absent = this.keys.filter((key) => !(key in record));
    const result = await this.model.collection.updateOne(
      { _id: record._id, ...Object.fromEntries(absent.map((key) => [key, { $exists: false }])) },
      // Stored as null when there is nothing to match: an absent key would mean "not computed yet".
      { $set: Object.fromEntries(absent.map((key) => [key, computed[key] ?? null])) },
    );
    return result.modifiedCount === 1;
  }
}
