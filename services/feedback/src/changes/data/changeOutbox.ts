import type { Collection, Connection } from 'mongoose';
import { INDEX_BUILD_TIME_LIMIT, insertUnordered } from '@fi/shared/database';
import { IDEMPOTENCY_WINDOW_MS, type Change, type CountDelta } from '../../core';

/**
 * What the change stream records: a change of items (the core's, see core/model/change.ts), or an event a
 * feature announces (an export's end: no item, no count).
 */
export type StreamChange = Omit<Change, 'type' | 'data'> & { type: string; data?: unknown };

/**
 * A change written before it is applied ("intent"). The change itself records the intent's id on the
 * feedback document in the same single-document write (`webhookEventIds`), which is atomic on every
 * MongoDB-compatible server without transactions; a removal is its own proof (the document is gone),
 * an import batch is proved by its last item. An intent whose change is seen is published to webhooks
 * (when an endpoint wanted it) and counted (when its writer did not live to count it); one whose
 * change never happened is dropped.
 */
interface OutboxDocument {
  _id: string;
  orgId: string;
  itemId: string;
  type: string;
  occurredAt: Date;
  data?: unknown;
  /**
   * Whether a listener (an endpoint of the organization) wanted the change when it was recorded (absent:
   * recorded before counts, true): the relay hands it over before it closes it.
   */
  deliver?: boolean;
  delta?: CountDelta;
  itemIds?: string[];
  /** See Change.heldUntil: the relay reads the intent only after it (absent: at once). */
  heldUntil?: Date | null;
  /** Set when the change is known to have happened although its document may be gone. */
  ready?: boolean;
  enqueuedAt?: Date;
  countedAt?: Date;
  /** Set when the change left the cells' pending lists (see CountStore.release). */
  releasedAt?: Date;
  /**
   * Set when the intent is closed. Changes whose id derives from the item (creation, removal) keep
   * their closed intent as long as an idempotent replay may come, so a replay recording the same id
   * again finds it closed and never counts it twice.
   */
  doneAt?: Date | null;
}

/**
 * Each organization's oldest import batch still open. When more batches were open than were read,
 * `unreadFrom` is when the newest one read began: every batch left unread began then or later.
 */
export interface OpenImports {
  oldest: Map<string, Date>;
  unreadFrom: Date | null;
}

/** `counted`: nothing is left to count (counted, or recorded before counts were kept); `ready`: known to have happened. */
export type RecordedChange = StreamChange & {
  ready: boolean;
  deliver: boolean;
  enqueued: boolean;
  counted: boolean;
  released: boolean;
};

/** Open import batches read at most (each is one CLI or API import in progress). */
const OPEN_IMPORTS_READ = 1_000;

const keptAfterClose = (type: string) => type === 'feedback.created' || type === 'feedback.deleted';

/**
 * The changes recorded before they are written (`webhook_outbox`), kept until the relay closes them;
 * whether one happened is for the relay's rules to say (changes/changeVerdicts.ts). The collection's name
 * predates the change stream: changes were first recorded for webhooks.
 */
export class ChangeOutbox {
  private readonly collection: Collection<OutboxDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<OutboxDocument>('webhook_outbox');
  }

  /**
   * Open changes oldest first, held ones apart (see pending): `heldUntil` before the sort, so that
   * `{doneAt: null, heldUntil: null}` (every change but an import batch) is read in order; the few held
   * batches past their hold are sorted apart. `doneAt` alone (the backlog's count, the purge) is its prefix.
   */
  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ doneAt: 1, heldUntil: 1, occurredAt: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  /**
   * Writes changes durably before they are applied, in one round trip; a repeat of an id is a no-op
   * (unordered: it stops nothing else).
   */
  async recordAll(changes: Array<{ change: StreamChange; deliver: boolean }>): Promise<void> {
    if (changes.length === 0) return;
    const docs = changes.map(({ change, deliver }) => ({
      _id: change.id,
      orgId: change.orgId,
      itemId: change.itemId,
      type: change.type,
      occurredAt: change.occurredAt,
      ...(change.data ? { data: change.data } : {}),
      deliver,
      delta: change.delta,
      ...(change.itemIds ? { itemIds: change.itemIds } : {}),
      ...(change.heldUntil ? { heldUntil: change.heldUntil } : {}),
      doneAt: null,
    }));
    await insertUnordered(this.collection, docs);
  }

  /**
   * The item is about to be removed: its applied changes will have no document left to prove them,
   * so they are marked ready first.
   */
  async markApplied(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.collection.updateMany({ _id: { $in: ids } }, { $set: { ready: true } });
  }

  async markEnqueued(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { enqueuedAt: new Date() } });
  }

  async markCounted(id: string, delta?: CountDelta): Promise<void> {
    await this.collection.updateOne(
      { _id: id },
      { $set: { countedAt: new Date(), ready: true, ...(delta ? { delta } : {}) } },
    );
  }

  async markReleased(id: string): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { releasedAt: new Date() } });
  }

  /** Whether the change is to be delivered, read alone (an import batch's intent holds thousands of cells and ids). */
  async wantsDelivery(id: string): Promise<boolean> {
    const doc = await this.collection.findOne({ _id: id }, { projection: { _id: 0, deliver: 1 } });
    return doc?.deliver === true;
  }

  /**
   * The oldest open changes (bounded), without those still held by their writer (`heldUntil`): an import
   * batch's intent (megabytes of ids and cells) is not read again and again while its writer is at work.
   * Two conditions every engine pushes down (null, a date range): the embedded one then never decodes such
   * an intent, only SQLite reads its `heldUntil`.
   */
  async pending(limit: number, now = new Date()): Promise<RecordedChange[]> {
    const docs = await this.collection
      .find({ doneAt: null, $or: [{ heldUntil: null }, { heldUntil: { $lte: now } }] })
      .sort({ occurredAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toChange);
  }

  /**
   * When each organization's oldest import batch still open was recorded: its writer may still be committing
   * items whose ids were made then (the search indexer stops before them). Only batches are held
   * (`heldUntil`), and few are open at once; each is read whole by the embedded engine (about 0.2 s for
   * 50,000 ids), so its readers keep the answer a while (see search/openImports.ts). Oldest first, so that
   * past `limit` an organization none of whose batches was read is still bounded (`unreadFrom`).
   */
  async oldestOpenImports(limit = OPEN_IMPORTS_READ): Promise<OpenImports> {
    const open = await this.collection
      .find({ doneAt: null, heldUntil: { $gt: new Date(0) } }, { projection: { _id: 0, orgId: 1, occurredAt: 1 } })
      .sort({ occurredAt: 1 })
      .limit(limit)
      .toArray();
    const oldest = new Map<string, Date>();
    for (const { orgId, occurredAt } of open) if (!oldest.has(orgId)) oldest.set(orgId, occurredAt);
    return { oldest, unreadFrom: open.length === limit ? open[limit - 1].occurredAt : null };
  }

  depth(): Promise<number> {
    return this.collection.countDocuments({ doneAt: null });
  }

  /** How many changes are open, and when the oldest one was recorded (what an operator watches). */
  async backlog(): Promise<{ depth: number; oldest: Date | null }> {
    const [oldest] = await this.pending(1);
    return { depth: await this.depth(), oldest: oldest?.occurredAt ?? null };
  }

  /** Closes the change: removed, or kept closed for a while when a replay could name it again. */
  async close(change: Pick<RecordedChange, 'id' | 'type'>, now = new Date()): Promise<void> {
    if (keptAfterClose(change.type)) await this.collection.updateOne({ _id: change.id }, { $set: { doneAt: now } });
    else await this.collection.deleteOne({ _id: change.id });
  }

  async remove(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }

  /** Closed changes past the idempotency window (no replay can name them any more). */
  async purgeClosed(now = new Date()): Promise<number> {
    const result = await this.collection.deleteMany({
      doneAt: { $lt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) },
    });
    return result.deletedCount;
  }
}

function toChange(doc: OutboxDocument): RecordedChange {
  return {
    id: doc._id,
    orgId: doc.orgId,
    itemId: doc.itemId,
    type: doc.type,
    occurredAt: doc.occurredAt,
    ...(doc.data ? { data: doc.data } : {}),
    delta: doc.delta ?? [],
    ...(doc.itemIds ? { itemIds: doc.itemIds } : {}),
    ...(doc.heldUntil ? { heldUntil: doc.heldUntil } : {}),
    // Counted by its writer means written (markCounted sets ready too).
    ready: doc.ready === true || doc.countedAt !== undefined,
    deliver: doc.deliver !== false,
    enqueued: doc.enqueuedAt !== undefined,
    counted: doc.countedAt !== undefined || doc.delta === undefined,
    released: doc.releasedAt !== undefined || doc.delta === undefined,
  };
}
