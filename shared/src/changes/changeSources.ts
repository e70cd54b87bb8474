import type { ChangeEntry, ChangePosition, ChangeSource } from './changeFeed';

/** Records by their change stamp (see ChangeStamped): the live half of a feed. */
export interface ChangedRecords<T> {
  changedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<ChangeEntry<T>[]>;
  /** Which of `ids` exist now. */
  existingIds(ids: string[]): Promise<Set<string>>;
}

/** Where removals are recorded before the record goes (see Tombstones). */
export interface RemovalLog {
  removedAfter(orgId: string, from: ChangePosition, before: Date, limit: number): Promise<Array<{ id: string; at: Date; kind: 'deleted' | 'merged' }>>;
}

/** A resource's feed sources: live records by their last change, and removed ones by their tombstones. */
export function recordChangeSources<T>(records: ChangedRecords<T>, removals: RemovalLog): ChangeSource<T>[] {
  const live: ChangeSource<T> = { after: (orgId, from, before, limit) => records.changedAfter(orgId, from, before, limit) };
  // A tombstone whose record still exists (its removal or merge failed after the tombstone was written,
  // or an unmerge put it back) holds its place but is not listed; a retried removal writes it anew.
  const removed: ChangeSource<T> = {
    async after(orgId, from, before, limit) {
      const found = await removals.removedAfter(orgId, from, before, limit);
      const existing = await records.existingIds(found.map((removal) => removal.id));
      return found.map((removal) => ({ type: removal.kind, id: removal.id, at: removal.at, item: null, skip: existing.has(removal.id) }));
    },
  };
  return [live, removed];
}
