import { Types, type Collection, type Connection } from 'mongoose';
import type { SealedSecret } from '@fi/shared';
import { INDEX_BUILD_TIME_LIMIT, newObjectIdHex, objectIdOrNull } from '@fi/shared/database';

interface EndpointDocument {
  _id: Types.ObjectId;
  orgId: string;
  url: string;
  events: string[];
  secret: SealedSecret;
  /** The secret before the last rotation, still signing beside `secret` until `previousSecretExpiresAt`. */
  previousSecret?: SealedSecret | null;
  previousSecretExpiresAt?: Date | null;
  createdAt: Date;
  /** Set at the first failed attempt after a success; cleared by the next success. */
  failingSince?: Date | null;
  disabledAt?: Date | null;
  disabledReason?: string | null;
}

export interface WebhookEndpoint {
  id: string;
  orgId: string;
  url: string;
  events: string[];
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** Until when the secret replaced by the last rotation still signs deliveries; null when none does. */
  previousSecretExpiresAt: Date | null;
}

/** An endpoint with what a delivery needs; the secrets stay sealed until the moment of signing. */
export interface EndpointForDelivery extends WebhookEndpoint {
  secret: SealedSecret;
  previousSecret: SealedSecret | null;
}

const toEndpoint = (doc: EndpointDocument): WebhookEndpoint => ({
  id: doc._id.toHexString(),
  orgId: doc.orgId,
  url: doc.url,
  events: doc.events,
  createdAt: doc.createdAt,
  failingSince: doc.failingSince ?? null,
  disabledAt: doc.disabledAt ?? null,
  disabledReason: doc.disabledReason ?? null,
  // A replaced secret past its overlap signs nothing: it is as if there were none.
  previousSecretExpiresAt:
    doc.previousSecret && doc.previousSecretExpiresAt && doc.previousSecretExpiresAt.getTime() > Date.now()
      ? doc.previousSecretExpiresAt
      : null,
});

/** Webhook endpoints: a small collection (a few per organization), so scanning it is cheap. */
export class WebhookEndpointStore {
  private readonly collection: Collection<EndpointDocument>;

  constructor(connection: Connection) {
    this.collection = connection.collection<EndpointDocument>('webhook_endpoints');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ orgId: 1, createdAt: 1 }, INDEX_BUILD_TIME_LIMIT);
  }

  newId(): string {
    return newObjectIdHex();
  }

  async insert(
    id: string,
    orgId: string,
    url: string,
    events: string[],
    secret: SealedSecret,
    now = new Date(),
  ): Promise<WebhookEndpoint> {
    const doc: EndpointDocument = { _id: new Types.ObjectId(id), orgId, url, events, secret, createdAt: now };
    await this.collection.insertOne(doc);
    return toEndpoint(doc);
  }

  async list(orgId: string): Promise<WebhookEndpoint[]> {
    const docs = await this.collection.find({ orgId }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toEndpoint);
  }

  count(orgId: string): Promise<number> {
    return this.collection.countDocuments({ orgId });
  }

  /** By `_id` alone (the one filter every server answers from its primary key), organization checked here. */
  async find(orgId: string, id: string): Promise<WebhookEndpoint | null> {
    const doc = await this.findDocument(id);
    return doc && doc.orgId === orgId ? toEndpoint(doc) : null;
  }

  async remove(orgId: string, id: string): Promise<boolean> {
    const doc = await this.findDocument(id);
    if (!doc || doc.orgId !== orgId) return false;
    const result = await this.collection.deleteOne({ _id: doc._id });
    return result.deletedCount === 1;
  }

  async forDelivery(ids: string[]): Promise<Map<string, EndpointForDelivery>> {
    const objectIds = ids.map(objectIdOrNull).filter((id): id is Types.ObjectId => id !== null);
    if (objectIds.length === 0) return new Map();
    const docs = await this.collection.find({ _id: { $in: objectIds } }).toArray();
    return new Map(
      docs.map((doc) => [
        doc._id.toHexString(),
        { ...toEndpoint(doc), secret: doc.secret, previousSecret: doc.previousSecret ?? null },
      ]),
    );
  }

  async recordSuccess(id: string): Promise<void> {
    await this.collection.updateOne(
      { _id: new Types.ObjectId(id), failingSince: { $ne: null } },
      { $set: { failingSince: null } },
    );
  }

  async recordFailure(id: string, now: Date): Promise<void> {
    await this.collection.updateOne(
      { _id: new Types.ObjectId(id), failingSince: null },
      { $set: { failingSince: now } },
    );
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    await this.collection.updateOne(
      { _id: new Types.ObjectId(id), disabledAt: null },
      { $set: { disabledAt: now, disabledReason: reason } },
    );
  }

  /** Enables a disabled endpoint again, as if it had never failed; null for another organization's. */
  async enable(orgId: string, id: string): Promise<WebhookEndpoint | null> {
    const _id = objectIdOrNull(id);
    if (!_id) return null;
    const doc = await this.collection.findOneAndUpdate(
      { _id, orgId },
      { $set: { disabledAt: null, disabledReason: null, failingSince: null } },
      { returnDocument: 'after' },
    );
    return doc ? toEndpoint(doc) : null;
  }

  /**
   * Replaces the secret with `secret`; the one replaced keeps signing until `previousUntil` (a secret
   * replaced earlier stops at once). Null for another organization's endpoint, or when another
   * rotation changed the secret since it was read (the caller asks again).
   */
  async rotateSecret(
    orgId: string,
    id: string,
    secret: SealedSecret,
    previousUntil: Date,
  ): Promise<WebhookEndpoint | 'conflict' | null> {
    const doc = await this.findDocument(id);
    if (!doc || doc.orgId !== orgId) return null;
    const rotated = await this.collection.findOneAndUpdate(
      { _id: doc._id, 'secret.iv': doc.secret.iv },
      { $set: { secret, previousSecret: doc.secret, previousSecretExpiresAt: previousUntil } },
      { returnDocument: 'after' },
    );
    return rotated ? toEndpoint(rotated) : 'conflict';
  }

  private findDocument(id: string): Promise<EndpointDocument | null> {
    const _id = objectIdOrNull(id);
    return _id ? this.collection.findOne({ _id }) : Promise.resolve(null);
  }
}
