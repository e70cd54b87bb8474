import { insertUnordered } from '@fi/shared/database';
import { createHash } from 'node:crypto';
import { Types, type Collection, type Connection } from 'mongoose';
import type { Claim, FeedbackItem } from '../model/feedbackItem';

interface ExternalIdDocument {
  /** Hash of organization, source and external id: the unique index that makes the claim atomic. */
  _id: string;
  /** Chosen by the first claim: every redelivery, retry or re-sync converges on this one id. */
  itemId: Types.ObjectId;
  /** The item as first created; later claims answer with it, even after the item was removed. */
  item?: FeedbackItem;
  createdAt: Date;
}

const idOf = (orgId: string, source: string, externalId: string) =>
  createHash('sha256').update(`${orgId}\u0000${source}\u0000${externalId}`).digest('hex');

/**
 * Items' ids on the platforms they came from (`externalId`), one item per organization, source and id,
 * however deliveries race or crash: the first insert of the key's record wins (a unique-insert slot, which
 * FerretDB v1 makes atomic where it does not make conditional updates so) and fixes the item's id. Unlike
 * idempotency keys these never expire: a platform may redeliver or be re-synced at any time. It answers the
 * core's ExternalIds port.
 */
export class ExternalIdStore {
  private readonly collection: Collection<ExternalIdDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<ExternalIdDocument>('external_ids');
  }

  async claim(
    orgId: string,
    source: string,
    externalId: string,
    now = new Date(),
  ): Promise<Claim & { fresh: boolean }> {
    return (await this.claimAll(orgId, [{ source, externalId }], now))[0];
  }

  /** Claims many in two round trips at most: one unordered insert, then a read of the keys already taken. */
  async claimAll(
    orgId: string,
    keys: Array<{ source: string; externalId: string }>,
    now = new Date(),
  ): Promise<Array<Claim & { fresh: boolean }>> {
    if (keys.length === 0) return [];
    const docs = keys.map(({ source, externalId }) => ({
      _id: idOf(orgId, source, externalId),
      itemId: new Types.ObjectId(),
      createdAt: now,
    }));
    const taken = await insertUnordered(this.collection, docs);
    const existing = new Map<string, ExternalIdDocument>();
    if (taken.size > 0) {
      const ids = [...taken].map((index) => docs[index]._id);
      for (const doc of await this.collection.find({ _id: { $in: ids } }).toArray()) existing.set(doc._id, doc);
    }
    return docs.map((doc, index) => {
      if (!taken.has(index)) return { itemId: doc.itemId.toHexString(), item: null, fresh: true };
      const found = existing.get(doc._id);
      if (!found) throw new Error('an external id claim vanished');
      return { itemId: found.itemId.toHexString(), item: found.item ?? null, fresh: false };
    });
  }

  async complete(orgId: string, source: string, externalId: string, item: FeedbackItem): Promise<void> {
    await this.completeAll(orgId, [{ source, externalId, item }]);
  }

  /** Keeps each claim's item as first created, in one round trip. */
  async completeAll(orgId: string, done: Array<{ source: string; externalId: string; item: FeedbackItem }>) {
    if (done.length === 0) return;
    await this.collection.bulkWrite(
      done.map(({ source, externalId, item }) => ({
        updateOne: { filter: { _id: idOf(orgId, source, externalId) }, update: { $set: { item } } },
      })),
      { ordered: false },
    );
  }
}
