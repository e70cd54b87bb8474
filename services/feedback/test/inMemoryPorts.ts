import { badRequest } from '@fi/shared';
import type {
  Change,
  ChangeEvents,
  Claim,
  FeedbackItem,
  FeedbackPage,
  FeedbackQuery,
  FeedbackRecord,
  FeedbackStatus,
  ExternalIds,
  IdempotencyKeys,
  ItemForChange,
  ItemLists,
  ItemStore,
  MergedItem,
  RemovedItems,
  StatusChange,
} from '../src/core';
import { itemOf } from '../src/core';

/**
 * The core's ports in memory, as the use cases see MongoDB: each write is atomic on one item, a change
 * names its change id in the item's own write, and a write conditional on what was read fails when the
 * item changed meanwhile. `interfere` runs before a conditional write (another writer getting there first).
 */
export class MemoryItems implements ItemStore, ItemLists {
  readonly stored = new Map<string, ItemForChange>();
  interfere: ((id: string) => void) | null = null;

  private copy(read: ItemForChange): ItemForChange {
    return { item: { ...read.item }, changeIds: read.changeIds && [...read.changeIds] };
  }

  async findById(orgIds: string | Iterable<string>, id: string): Promise<FeedbackItem | null> {
    const orgs = new Set(typeof orgIds === 'string' ? [orgIds] : orgIds);
    const found = this.stored.get(id);
    return found && orgs.has(found.item.orgId) ? { ...found.item } : null;
  }

  async findForChange(orgId: string, id: string): Promise<ItemForChange | null> {
    const found = this.stored.get(id);
    return found && found.item.orgId === orgId ? this.copy(found) : null;
  }

  async findOwn(orgId: string, ids: string[]): Promise<Map<string, ItemForChange>> {
    const own = new Map<string, ItemForChange>();
    for (const id of ids) {
      const found = this.stored.get(id.toLowerCase());
      if (found && found.item.orgId === orgId) own.set(id.toLowerCase(), this.copy(found));
    }
    return own;
  }

  async createOnce(orgId: string, id: string, record: FeedbackRecord, changeIds: string[]) {
    const existing = this.stored.get(id);
    if (existing) return { item: { ...existing.item }, created: false };
    const item = itemOf(id, orgId, record);
    this.stored.set(id, { item, changeIds });
    return { item: { ...item }, created: true };
  }

  async insertBatch(orgId: string, ids: string[], records: FeedbackRecord[]): Promise<number> {
    records.forEach((record, i) =>
      this.stored.set(ids[i], { item: itemOf(ids[i], orgId, record), changeIds: undefined }),
    );
    return records.length;
  }

  async insertEach(orgId: string, ids: string[], records: FeedbackRecord[], changeIds: string[]): Promise<string[]> {
    const written = ids.filter((id) => !this.stored.has(id));
    records.forEach((record, i) => {
      if (!this.stored.has(ids[i]))
        this.stored.set(ids[i], { item: itemOf(ids[i], orgId, record), changeIds: [changeIds[i]] });
    });
    return written;
  }

  async setStatus(
    current: ItemForChange,
    status: FeedbackStatus,
    now = new Date(),
    changeId?: string,
  ): Promise<StatusChange | null> {
    if (current.item.status === status) return { item: current.item, previousStatus: status, changed: false };
    this.interfere?.(current.item.id);
    const stored = this.stored.get(current.item.id);
    if (!stored || stored.item.status !== current.item.status) return null;
    stored.item = { ...stored.item, status, updatedAt: now };
    if (changeId) stored.changeIds = [...(stored.changeIds ?? []), changeId];
    return { item: { ...stored.item }, previousStatus: current.item.status, changed: true };
  }

  async removeUnchanged(read: ItemForChange): Promise<boolean> {
    this.interfere?.(read.item.id);
    const stored = this.stored.get(read.item.id);
    if (!stored || JSON.stringify(stored.changeIds) !== JSON.stringify(read.changeIds)) return false;
    this.stored.delete(read.item.id);
    return true;
  }

  async restore(item: FeedbackItem, changeId: string): Promise<FeedbackItem | null> {
    if (this.stored.has(item.id)) return null;
    this.stored.set(item.id, { item: { ...item }, changeIds: [changeId] });
    return { ...item };
  }

  /** Every item of the organization matching the status filter, newest first (what the tests need of a list). */
  async list(orgId: string, query: FeedbackQuery): Promise<FeedbackPage> {
    const items = [...this.stored.values()]
      .map(({ item }) => item)
      .filter((item) => item.orgId === orgId && (query.status === undefined || item.status === query.status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return {
      items: items.slice(query.page.skip, query.page.skip + query.page.take),
      total: items.length,
      nextCursor: null,
      searchReach: null,
    };
  }
}

export class MemoryTombstones implements RemovedItems {
  readonly removed = new Map<string, Omit<FeedbackItem, 'id'>>();
  readonly merged = new Map<string, MergedItem>();

  async record(id: string, fields: Omit<FeedbackItem, 'id'>): Promise<void> {
    this.merged.delete(id);
    this.removed.set(id, fields);
  }

  async recordMerged(id: string, fields: Omit<FeedbackItem, 'id'>, into: string): Promise<void> {
    this.merged.set(id, { ...fields, id, duplicateOf: into });
  }

  async findMerged(orgId: string, id: string): Promise<MergedItem | null> {
    const merged = this.merged.get(id);
    return merged && merged.orgId === orgId ? { ...merged } : null;
  }

  async forgetMerged(id: string): Promise<void> {
    this.merged.delete(id);
  }
}

export class MemoryIdempotency implements IdempotencyKeys {
  private readonly claims = new Map<string, { inputHash: string; itemId: string; item: FeedbackItem | null }>();
  private next = 0;

  async claim(orgId: string, key: string, inputHash: string): Promise<Claim> {
    const id = `${orgId}\u0000${key}`;
    const existing = this.claims.get(id);
    if (!existing) {
      const itemId = (0xa00000 + (this.next += 1)).toString(16).padStart(24, '0');
      this.claims.set(id, { inputHash, itemId, item: null });
      return { itemId, item: null };
    }
    if (existing.inputHash !== inputHash)
      throw badRequest('This Idempotency-Key was already used with a different input', { argument: 'Idempotency-Key' });
    return { itemId: existing.itemId, item: existing.item };
  }

  async complete(orgId: string, key: string, item: FeedbackItem): Promise<void> {
    this.claims.get(`${orgId}\u0000${key}`)!.item = item;
  }
}

/** External ids in memory: the first claim of an organization's source and id wins for good. */
export class MemoryExternalIds implements ExternalIds {
  private readonly claims = new Map<string, { itemId: string; item: FeedbackItem | null }>();
  private next = 0;

  async claim(orgId: string, source: string, externalId: string): Promise<Claim & { fresh: boolean }> {
    const id = [orgId, source, externalId].join('\u0000');
    const existing = this.claims.get(id);
    if (existing) return { ...existing, fresh: false };
    const itemId = (0xb00000 + (this.next += 1)).toString(16).padStart(24, '0');
    this.claims.set(id, { itemId, item: null });
    return { itemId, item: null, fresh: true };
  }

  async claimAll(orgId: string, keys: Array<{ source: string; externalId: string }>) {
    return Promise.all(keys.map(({ source, externalId }) => this.claim(orgId, source, externalId)));
  }

  async complete(orgId: string, source: string, externalId: string, item: FeedbackItem): Promise<void> {
    this.claims.get([orgId, source, externalId].join('\u0000'))!.item = item;
  }

  async completeAll(orgId: string, done: Array<{ source: string; externalId: string; item: FeedbackItem }>) {
    for (const { source, externalId, item } of done) await this.complete(orgId, source, externalId, item);
  }
}

/** The change stream as the core sees it, recording what it was told in order. */
export class RecordingEvents implements ChangeEvents {
  readonly log: Array<[string, string]> = [];
  readonly recorded: Change[] = [];
  /** The changes written and handed back to be counted. */
  readonly counted: Change[] = [];
  readonly applied: string[] = [];

  async record(change: Change): Promise<void> {
    this.log.push(['record', change.id]);
    this.recorded.push(change);
  }

  async recordAll(changes: Change[]): Promise<void> {
    for (const change of changes) await this.record(change);
  }

  async markApplied(changeIds: string[]): Promise<void> {
    this.log.push(['markApplied', changeIds.join(',')]);
    this.applied.push(...changeIds);
  }

  async written(change: Change): Promise<void> {
    this.log.push(['written', change.id]);
    this.counted.push(change);
  }
}
