import { REMOVAL_GRACE_MS, type ChangeEntry, type ChangePosition, type ChangeSource } from './changeFeed';

/** Records by their change stamp (see ChangeStamped): the live half of a feed. */
export interface ChangedRecords<T> {
  changedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<ChangeEntry<T>[]>;
  /** Which of `ids` exist now. */
  existingIds(ids: string[]): Promise<Set<string>>;
}

/** Where removals are recorded before the record goes (see Tombstones). */
export interface RemovalLog {
  removedAfter(
    orgId: string,
    from: ChangePosition,
    before: Date,
    limit: number,
  ): Promise<Array<{ id: string; at: Date; kind: 'deleted' | 'merged' }>>;
}

/** A resource's feed sources: live records by their last change, and removed ones by their tombstones. */
export function recordChangeSources<T>(records: ChangedRecords<T>, removals: RemovalLog): ChangeSource<T>[] {
  const live: ChangeSource<T> = {
    after: (orgId, from, before, limit) => records.changedAfter(orgId, from, before, limit),
  };
  // A tombstone whose record still exists holds the feed while its removal may still land; past
  // REMOVAL_GRACE_MS the removal (or merge) failed, or an unmerge put the record back: it holds its place
  // but is not listed, and a retried removal writes it anew.
  const removed: ChangeSource<T> = {
    async after(orgId, from, before, limit) {
      const found = await removals.removedAfter(orgId, from, before, limit);
      const existing = await records.existingIds(found.map((removal) => removal.id));
      const settled = Date.now() - REMOVAL_GRACE_MS;
      return found.map((removal) => {
        const standing = existing.has(removal.id);
        return {
          type: removal.kind,
          id: removal.id,
          at: removal.at,
          item: null,
          skip: standing && removal.at.getTime() < settled,
          hold: standing && removal.at.getTime() >= settled,
        };
      });
    },
  };
  return [live, removed];
}
