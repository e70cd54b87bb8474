import { mongo, Schema, Types, type Connection, type Model } from 'mongoose';
import { DEFAULT_MAX_TIME_MS } from '@fi/shared';
import { buildIndexes } from '@fi/shared/database';
import { feedbackModel, type FeedbackDocument } from '../../core/data';

export { idSecondsBefore } from '../../core/data';

/** An item as the model's work reads it: its text, and its sentiment for the chat model's rule. */
export interface ModelItem {
  id: string;
  orgId: string;
  title: string;
  content: string;
  sentimentSource: string;
}

interface VectorDocument {
  /** The item's id. */
  _id: Types.ObjectId;
  orgId: string;
  /** The embedding model the vector is of: a vector of another model is not compared (and is made again). */
  model: string;
  /** Float32 values, little-endian (a Binary when read lean). */
  vector: Buffer | mongo.Binary;
  at: Date;
}

interface ProgressDocument {
  /** `<pass>:<model>`: a new model starts from the first item. */
  _id: string;
  /** The last item id the pass went past (what it could not do is in the pending items). */
  after: string;
}

interface PendingDocument {
  /** `<pass>:<item id>`. */
  _id: string;
  pass: string;
  orgId: string;
  itemId: string;
  notBefore: Date;
}

interface BudgetDocument {
  /** `<org>:<YYYY-MM>` (UTC). */
  _id: string;
  orgId: string;
  used: number;
}

const vectorSchema = new Schema<VectorDocument>(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    orgId: { type: String, required: true },
    model: { type: String, required: true },
    vector: { type: Buffer, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'ai_item_vectors', versionKey: false },
);
vectorSchema.index({ orgId: 1, model: 1, at: 1 });

const progressSchema = new Schema<ProgressDocument>(
  { _id: { type: String, required: true }, after: { type: String, required: true } },
  { collection: 'ai_progress', versionKey: false },
);

const pendingSchema = new Schema<PendingDocument>(
  {
    _id: { type: String, required: true },
    pass: { type: String, required: true },
    orgId: { type: String, required: true },
    itemId: { type: String, required: true },
    notBefore: { type: Date, required: true },
  },
  { collection: 'ai_pending', versionKey: false },
);
pendingSchema.index({ pass: 1, notBefore: 1 });

const budgetSchema = new Schema<BudgetDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    used: { type: Number, default: 0 },
  },
  { collection: 'ai_token_budgets', versionKey: false },
);

const modelOf = <D>(connection: Connection, name: string, schema: Schema<D>): Model<D> =>
  (connection.models[name] as Model<D> | undefined) ?? connection.model<D>(name, schema);

const toBuffer = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
/**
 * A stored vector as read (lean reads give the driver's Binary): copied, since the driver's bytes may
 * share memory and need not be aligned for a Float32Array.
 */
const toVector = (stored: Buffer | mongo.Binary) =>
  new Float32Array(Uint8Array.from(stored instanceof mongo.Binary ? stored.buffer : stored).buffer);

const storedVectorOf = (doc: VectorDocument) => ({
  id: doc._id.toHexString(),
  vector: toVector(doc.vector),
  at: doc.at,
});

/**
 * The model feature's store: the items' vectors under the embedding model that made them, how far each
 * pass over the items got, the items a failure left to do again, and the organizations' monthly tokens.
 */
export class AiStore {
  private readonly vectors: Model<VectorDocument>;
  private readonly progress: Model<ProgressDocument>;
  private readonly pending: Model<PendingDocument>;
  private readonly budgets: Model<BudgetDocument>;
  private readonly items: Model<FeedbackDocument>;

  constructor(connection: Connection) {
    this.vectors = modelOf(connection, 'AiItemVector', vectorSchema);
    this.progress = modelOf(connection, 'AiProgress', progressSchema);
    this.pending = modelOf(connection, 'AiPending', pendingSchema);
    this.budgets = modelOf(connection, 'AiTokenBudget', budgetSchema);
    this.items = feedbackModel(connection);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([buildIndexes(this.vectors), buildIndexes(this.pending)]);
  }

  /** Vectors of these items under `model` (items without one are absent). */
  async vectorsOf(orgId: string, model: string, itemIds: readonly string[]): Promise<Map<string, Float32Array>> {
    const ids = itemIds.filter((id) => Types.ObjectId.isValid(id)).map((id) => new Types.ObjectId(id));
    if (ids.length === 0) return new Map();
    const docs = await this.vectors
      .find({ _id: { $in: ids }, orgId, model }, { vector: 1 })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<Pick<VectorDocument, '_id' | 'vector'>>>();
    return new Map(docs.map((doc) => [doc._id.toHexString(), toVector(doc.vector)]));
  }

  /** Every vector of the organization under `model`, with its time. */
  async allVectors(orgId: string, model: string): Promise<Array<{ id: string; vector: Float32Array; at: Date }>> {
    const docs = await this.vectors.find({ orgId, model }).maxTimeMS(DEFAULT_MAX_TIME_MS).lean<VectorDocument[]>();
    return docs.map(storedVectorOf);
  }

  /** How many vectors of `model` the organization has, and when the newest was stored (index-served). */
  async vectorStamp(orgId: string, model: string): Promise<{ count: number; newest: Date | null }> {
    const [count, newest] = await Promise.all([
      this.vectors.countDocuments({ orgId, model }).maxTimeMS(DEFAULT_MAX_TIME_MS),
      this.vectors
        .findOne({ orgId, model }, { at: 1 })
        .sort({ at: -1 })
        .maxTimeMS(DEFAULT_MAX_TIME_MS)
        .lean<Pick<VectorDocument, 'at'>>(),
    ]);
    return { count, newest: newest?.at ?? null };
  }

  /** Ids and times of the organization's vectors under `model` stored at or after `since` (no vectors: a light read). */
  async vectorTimesSince(orgId: string, model: string, since: Date): Promise<Array<{ id: string; at: Date }>> {
    const docs = await this.vectors
      .find({ orgId, model, at: { $gte: since } }, { at: 1 })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<Pick<VectorDocument, '_id' | 'at'>>>();
    return docs.map((doc) => ({ id: doc._id.toHexString(), at: doc.at }));
  }

  /** Vectors of these items under `model`, with their times (items without one are absent). */
  async vectorsWithTimes(
    orgId: string,
    model: string,
    itemIds: readonly string[],
  ): Promise<Array<{ id: string; vector: Float32Array; at: Date }>> {
    const docs = await this.vectors
      .find({ _id: { $in: itemIds.map((id) => new Types.ObjectId(id)) }, orgId, model })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<VectorDocument[]>();
    return docs.map(storedVectorOf);
  }

  async putVectors(orgId: string, model: string, vectors: Array<{ id: string; vector: Float32Array }>): Promise<void> {
    if (vectors.length === 0) return;
    const at = new Date();
    await this.vectors.bulkWrite(
      vectors.map(({ id, vector }) => ({
        updateOne: {
          filter: { _id: new Types.ObjectId(id) },
          update: { $set: { orgId, model, vector: toBuffer(vector), at } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /** The items among `ids` that have a vector of `model`. */
  async withVector(model: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.vectors
      .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) }, model }, { _id: 1 })
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<{ _id: Types.ObjectId }>>();
    return new Set(docs.map((doc) => doc._id.toHexString()));
  }

  /**
   * The next `limit` items of every organization after the id `after` (from the first when null), in `_id`
   * order; with `upTo`, only those up to that id.
   */
  async itemsAfter(after: string | null, limit: number, upTo?: string): Promise<ModelItem[]> {
    const range = {
      ...(after ? { $gt: new Types.ObjectId(after) } : {}),
      ...(upTo ? { $lte: new Types.ObjectId(upTo) } : {}),
    };
    const docs = await this.items.collection
      .find(after || upTo ? { _id: range } : {}, {
        projection: { orgId: 1, title: 1, content: 1, sentimentSource: 1 },
        sort: { _id: 1 },
        limit,
        maxTimeMS: DEFAULT_MAX_TIME_MS,
      })
      .toArray();
    return docs.map(modelItemOf);
  }

  async itemsByIds(ids: readonly string[]): Promise<ModelItem[]> {
    if (ids.length === 0) return [];
    const docs = await this.items.collection
      .find(
        { _id: { $in: ids.map((id) => new Types.ObjectId(id)) } },
        { projection: { orgId: 1, title: 1, content: 1, sentimentSource: 1 }, maxTimeMS: DEFAULT_MAX_TIME_MS },
      )
      .toArray();
    return docs.map(modelItemOf);
  }

  async positionOf(key: string): Promise<string | null> {
    const doc = await this.progress.findById(key).maxTimeMS(DEFAULT_MAX_TIME_MS).lean<ProgressDocument>();
    return doc?.after ?? null;
  }

  async setPosition(key: string, after: string): Promise<void> {
    await this.progress.updateOne({ _id: key }, { $set: { after } }, { upsert: true });
  }

  /** Items of the pass to do again from `notBefore` (an item already waiting takes the later time). */
  async postpone(pass: string, items: Array<{ id: string; orgId: string }>, notBefore: Date): Promise<void> {
    if (items.length === 0) return;
    await this.pending.bulkWrite(
      items.map(({ id, orgId }) => ({
        updateOne: {
          filter: { _id: `${pass}:${id}` },
          update: { $set: { pass, orgId, itemId: id, notBefore } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /** Up to `limit` items of the pass whose time to be done again has come, first due first. */
  async due(pass: string, now: Date, limit: number): Promise<string[]> {
    const docs = await this.pending
      .find({ pass, notBefore: { $lte: now } }, { itemId: 1 })
      .sort({ notBefore: 1 })
      .limit(limit)
      .maxTimeMS(DEFAULT_MAX_TIME_MS)
      .lean<Array<Pick<PendingDocument, 'itemId'>>>();
    return docs.map((doc) => doc.itemId);
  }

  async done(pass: string, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.pending.deleteMany({ _id: { $in: itemIds.map((id) => `${pass}:${id}`) } });
  }

  /**
   * Adds `tokens` to the organization's month if the month then stays within `limit`; false (nothing
   * added) when not: one conditional `$inc`, atomic on MongoDB and on the embedded engine alike, so
   * instances reserving at once never pass the limit together.
   */
  async reserveTokens(orgId: string, month: string, tokens: number, limit: number): Promise<boolean> {
    const _id = `${orgId}:${month}`;
    await this.budgets.updateOne({ _id }, { $setOnInsert: { orgId, used: 0 } }, { upsert: true });
    const result = await this.budgets.updateOne({ _id, used: { $lte: limit - tokens } }, { $inc: { used: tokens } });
    return result.modifiedCount === 1;
  }

  /** Adds `tokens` (negative to give back) to the organization's month. */
  async addTokens(orgId: string, month: string, tokens: number): Promise<void> {
    if (tokens === 0) return;
    await this.budgets.updateOne({ _id: `${orgId}:${month}` }, { $inc: { used: tokens } }, { upsert: true });
  }

  async tokensUsed(orgId: string, month: string): Promise<number> {
    const doc = await this.budgets.findById(`${orgId}:${month}`).maxTimeMS(DEFAULT_MAX_TIME_MS).lean<BudgetDocument>();
    return doc?.used ?? 0;
  }
}

const modelItemOf = (doc: Record<string, unknown> & { _id: Types.ObjectId }): ModelItem => ({
  id: doc._id.toHexString(),
  orgId: doc.orgId as string,
  title: (doc.title as string) ?? '',
  content: (doc.content as string) ?? '',
  sentimentSource: (doc.sentimentSource as string | undefined) ?? 'provided',
});
