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

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

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
    const _id = idOf(orgId, source, externalId);
    const itemId = new Types.ObjectId();
    try {
      await this.collection.insertOne({ _id, itemId, createdAt: now });
      return { itemId: itemId.toHexString(), item: null, fresh: true };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const existing = await this.collection.findOne({ _id });
    if (!existing) throw new Error('an external id claim vanished');
    return { itemId: existing.itemId.toHexString(), item: existing.item ?? null, fresh: false };
  }

  async complete(orgId: string, source: string, externalId: string, item: FeedbackItem): Promise<void> {
    await this.collection.updateOne({ _id: idOf(orgId, source, externalId) }, { $set: { item } });
  }
}
