import { badRequest } from '../errors';
import { MAX_TAKE } from '../pagination';
import { TIME_ID_CURSOR_LENGTH, timeIdCursor, type TimeIdPosition } from '../timeIdCursor';
import { requireMaxLength } from '../textArguments';

export const CHANGE_TYPES = ['created', 'updated', 'deleted', 'merged'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** How long deletions are kept as tombstones, so how far back a feed cursor may point. */
export const CHANGES_KEPT_DAYS = 30;
export const CHANGES_KEPT_MS = CHANGES_KEPT_DAYS * 86_400_000;

/**
 * How long after its time stamp a change may still become visible: a change is stamped just before it is
 * sent and takes at most two writes (a removal: its tombstone, then the delete), each landing within the
 * database time limit or failing, plus a margin for the clocks of the instances. The feed only serves
 * changes older than this, so a slow write is never passed over, and a tombstone is never read while its
 * removal may still land (it would be skipped as "record still exists" and its deletion lost).
 */
export const changesSettleMs = (config: { mongodbMaxTimeMs: number; changesClockMarginMs: number }) =>
  2 * config.mongodbMaxTimeMs + config.changesClockMarginMs;

/** One entry of a changes feed: the record's state now (null once it is gone). */
export interface ChangeEntry<T> {
  type: ChangeType;
  id: string;
  at: Date;
  item: T | null;
}

/** A read position: entries strictly after it, in (at, id) order. */
export type ChangePosition = TimeIdPosition;

/**
 * How long a removal may take from its tombstone to its delete (the writer's own pauses included, as on
 * a busy machine): a tombstone this old whose record still exists stands for a removal that failed.
 */
export const REMOVAL_GRACE_MS = 60_000;

/**
 * Where a resource's changes come from (live records by their last change, tombstones by their removal):
 * entries strictly after `from` and before `before`, in (at, id) order, at most `limit`. An entry with
 * `skip` holds a place in the order but is not served (a tombstone whose record still exists past
 * REMOVAL_GRACE_MS: its removal failed, and a retried one is stamped anew); one with `hold` (the same,
 * younger: its delete may still land) ends the page before it, so the feed waits for the removal to
 * land or to fail instead of passing over it.
 */
export interface ChangeSource<T> {
  after(
    orgId: string,
    from: ChangePosition,
    before: Date,
    limit: number,
  ): Promise<Array<ChangeEntry<T> & { skip?: boolean; hold?: boolean }>>;
}

export interface ChangePage<T> {
  items: ChangeEntry<T>[];
  cursor: string;
  hasMore: boolean;
}

const MAX_ID = 'f'.repeat(24);
const MIN_ID = '0'.repeat(24);
const compare = (a: ChangePosition, b: ChangePosition) =>
  a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A resource's feed cursors, salted with the resource: no other feed's (or list's) cursor fits. */
const changeCursors = (resource: string) =>
  timeIdCursor(
    `fi-changes-cursor:${resource}`,
    'after',
    `pass the cursor of a previous ${resource} changes page, or an export's changesCursor, unchanged`,
  );

/** Where a resource's feed continues an export whose snapshot was taken at `snapshotAt`. */
export function changesCursorAt(resource: string, snapshotAt: Date, settleMs: number): string {
  // Changes stamped before snapshotAt - settle had landed when the snapshot was taken, so the export holds them.
  return changeCursors(resource).encode({ at: new Date(snapshotAt.getTime() - settleMs - 1), id: MIN_ID });
}

/** One resource's feed over its sources (live records, tombstones). */
export function changeFeed<T>(resource: string, sources: ChangeSource<T>[], settleMs: number) {
  const cursors = changeCursors(resource);
  return {
    async read(
      orgId: string,
      args: { after?: string | null; take?: number | null },
      now = new Date(),
    ): Promise<ChangePage<T>> {
      const take = args.take ?? MAX_TAKE;
      if (take < 0 || take > MAX_TAKE)
        throw badRequest(`take must be between 0 and ${MAX_TAKE} (got ${take})`, {
          argument: 'take',
          min: 0,
          max: MAX_TAKE,
        });
      const oldest = new Date(now.getTime() - CHANGES_KEPT_MS);
      const from = args.after
        ? cursors.decode(requireMaxLength('after', args.after, TIME_ID_CURSOR_LENGTH))
        : { at: oldest, id: MIN_ID };
      if (from.at < oldest) {
        throw badRequest(
          `after points to ${from.at.toISOString()}, older than the ${CHANGES_KEPT_DAYS} days changes are kept (deletions before then are gone): start again from a new export and its changesCursor`,
          { argument: 'after', reason: 'CURSOR_EXPIRED', keptDays: CHANGES_KEPT_DAYS },
        );
      }
      const before = new Date(now.getTime() - settleMs);
      // Everything before the horizon has been read once a page ends with nothing more.
      const horizon = { at: new Date(before.getTime() - 1), id: MAX_ID };
      const limit = take + 1;
      const reads = await Promise.all(sources.map((source) => source.after(orgId, from, before, limit)));
      // A source that filled its limit may have more after its last entry: nothing past that is served yet.
      const bound = reads
        .filter((entries) => entries.length === limit)
        .map((entries) => entries[entries.length - 1])
        .reduce<ChangePosition | null>((low, entry) => (low === null || compare(entry, low) < 0 ? entry : low), null);
      const items: ChangeEntry<T>[] = [];
      let last: ChangePosition = from;
      for (const entry of reads.flat().sort(compare)) {
        if (entry.hold) return { items, cursor: cursors.encode(last), hasMore: false };
        if (items.length === take || (bound && compare(entry, bound) > 0)) {
          return { items, cursor: cursors.encode(last), hasMore: true };
        }
        last = entry;
        if (!entry.skip) items.push({ type: entry.type, id: entry.id, at: entry.at, item: entry.item });
      }
      if (bound) return { items, cursor: cursors.encode(last), hasMore: true };
      return { items, cursor: cursors.encode(compare(last, horizon) > 0 ? last : horizon), hasMore: false };
    },
  };
}

export type ChangeFeed<T> = ReturnType<typeof changeFeed<T>>;
