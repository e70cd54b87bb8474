import { createHash } from 'node:crypto';
import { Types, type Collection, type Connection } from 'mongoose';
import { badRequest } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT } from '@fi/shared/database';
import type { Claim, FeedbackItem } from '../model/feedbackItem';

/** How long a key protects against duplicates: a replay after this creates a new item. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

interface IdempotencyDocument {
  /** Hash of organization and key, so keys of different organizations never meet. */
  _id: string;
  inputHash: string;
  /** Chosen before the item is written: every replay converges on this one id. */
  itemId: Types.ObjectId;
  /** The item as first returned; replays answer with it even after the item was removed. */
  item?: FeedbackItem;
  createdAt: Date;
}

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

const idOf = (orgId: string, key: string) => createHash('sha256').update(`${orgId}\u0000${key}`).digest('hex');

/**
 * Idempotency for addFeedbackItem without transactions or TTL indexes (FerretDB has neither):
 * the first request to insert the key's record wins and fixes the item's id; every replay with the
 * same input reuses that id, so however requests race or crash, at most one item exists per key.
 */
export class IdempotencyStore {
  private readonly collection: Collection<IdempotencyDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<IdempotencyDocument>('idempotency_keys');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ createdAt: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  async claim(orgId: string, key: string, inputHash: string, now = new Date()): Promise<Claim> {
    const _id = idOf(orgId, key);
    const collection = this.collection;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const itemId = new Types.ObjectId();
      try {
        await collection.insertOne({ _id, inputHash, itemId, createdAt: now });
        return { itemId: itemId.toHexString(), item: null };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      // An expired record is taken over atomically: only one request can move its createdAt forward.
      const expired = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
      const takeover = await collection.updateOne(
        { _id, createdAt: { $lt: expired } },
        { $set: { inputHash, itemId, createdAt: now }, $unset: { item: '' } },
      );
      if (takeover.modifiedCount === 1) return { itemId: itemId.toHexString(), item: null };
      const existing = await collection.findOne({ _id });
      if (!existing) continue;
      if (existing.inputHash !== inputHash) {
        throw badRequest('This Idempotency-Key was already used with a different input', {
          argument: 'Idempotency-Key',
        });
      }
      return { itemId: existing.itemId.toHexString(), item: existing.item ?? null };
    }
    throw new Error('could not claim the idempotency key');
  }

  async complete(orgId: string, key: string, item: FeedbackItem): Promise<void> {
    await this.collection.updateOne({ _id: idOf(orgId, key) }, { $set: { item } });
  }

  /** Removes records past the window; run periodically, since FerretDB has no TTL index. */
  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.collection.deleteMany({
      createdAt: { $lt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) },
    });
    return result.deletedCount;
  }
}
