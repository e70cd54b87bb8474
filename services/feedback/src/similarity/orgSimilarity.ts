import { noItemVectors, type ItemVectors } from '../ai';
import { idSecondsBefore, type SimilarityStore } from './data/similarityStore';
import { SimilarityIndex } from './similarityIndex';

/** Items read per round trip while an index is built or refreshed. */
const PAGE_SIZE = 2_000;
/** An index is brought up to date when it is asked for and this long has passed since its last refresh. */
export const REFRESH_AFTER_MS = 2_000;
/**
 * Ids made by other processes in the same seconds need not arrive in id order, so each refresh reads
 * again from this many seconds before the newest id it has (what it holds already is skipped).
 */
const OVERLAP_SECONDS = 10;
/** Organizations whose index stays in memory (least recently asked for leaves first). */
const MAX_ORGANIZATIONS = 50;

interface Entry {
  index: SimilarityIndex;
  /** The largest id read (24-digit lower-case hex strings compare as the ids do). */
  newest: string | null;
  refreshedAt: number;
  refreshing?: Promise<void>;
}

/**
 * The similarity index of each organization, in this process's memory: built on the first question,
 * then refreshed with the items added since (read by `_id`, which every server narrows). Deleted items
 * leave it when a question finds them gone (`forget`). Each instance of the service keeps its own.
 */
export class OrgSimilarity {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: SimilarityStore,
    /** The embedding model's vectors, compared first when a model is configured (see similarFeedback). */
    readonly vectors: ItemVectors = noItemVectors,
    private readonly clock: () => number = Date.now,
  ) {}

  async indexOf(orgId: string): Promise<SimilarityIndex> {
    let entry = this.entries.get(orgId);
    if (entry) this.entries.delete(orgId);
    else entry = { index: new SimilarityIndex(), newest: null, refreshedAt: -Infinity };
    this.entries.set(orgId, entry);
    if (this.entries.size > MAX_ORGANIZATIONS) this.entries.delete(this.entries.keys().next().value!);
    if (this.clock() - entry.refreshedAt >= REFRESH_AFTER_MS) {
      const current = entry;
      current.refreshing ??= this.refresh(orgId, current).finally(() => (current.refreshing = undefined));
      await current.refreshing;
    }
    return entry.index;
  }

  forget(orgId: string, id: string): void {
    this.entries.get(orgId)?.index.remove(id);
  }

  private async refresh(orgId: string, entry: Entry): Promise<void> {
    const startedAt = this.clock();
    let after = entry.newest ? idSecondsBefore(entry.newest, OVERLAP_SECONDS) : null;
    for (;;) {
      const page = await this.store.page(orgId, after, PAGE_SIZE);
      for (const item of page) {
        entry.index.add(item);
        if (!entry.newest || item.id > entry.newest) entry.newest = item.id;
      }
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1].id;
    }
    entry.refreshedAt = startedAt;
  }
}
