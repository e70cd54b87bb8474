import DataLoader from 'dataloader';
import { MAX_DUPLICATES, type FeedbackItem, type MergedItem } from '../core';

export type DuplicateLoader = DataLoader<{ orgId: string; id: string }, MergedItem[], string>;

/** What the merges' resolvers need of a request's context. */
export interface MergesContext {
  /** Per request: the duplicates merged into each item. */
  duplicates: DuplicateLoader;
}

/**
 * Per request: the duplicates merged into each item of a page, one read per organization (not one per
 * item). A merged tombstone whose item is live again (an unmerge that did not finish) is no duplicate.
 */
export function createDuplicateLoader(
  tombstones: { mergedInto(orgId: string, intoIds: string[], limit: number): Promise<MergedItem[]> },
  items: { existingIds(ids: string[]): Promise<Set<string>> },
): DuplicateLoader {
  return new DataLoader(
    async (keys) => {
      const byOrg = new Map<string, string[]>();
      for (const { orgId, id } of keys) byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), id]);
      const found = new Map<string, MergedItem[]>();
      await Promise.all(
        [...byOrg].map(async ([orgId, ids]) => {
          const merged = await tombstones.mergedInto(orgId, ids, ids.length * MAX_DUPLICATES);
          const live = await items.existingIds(merged.map((item) => item.id));
          for (const item of merged.filter((candidate) => !live.has(candidate.id))) {
            const key = `${orgId}\n${item.duplicateOf}`;
            found.set(key, [...(found.get(key) ?? []), item]);
          }
        }),
      );
      return keys.map(({ orgId, id }) => (found.get(`${orgId}\n${id}`) ?? []).slice(0, MAX_DUPLICATES));
    },
    { cacheKeyFn: ({ orgId, id }) => `${orgId}\n${id}` },
  );
}

/** The item a merged duplicate points to, when the item passed is one. */
export const mergedInto = (item: FeedbackItem): string | null =>
  'duplicateOf' in item && typeof item.duplicateOf === 'string' ? item.duplicateOf : null;
