import { Schema, Types, type Connection, type Model, type mongo } from 'mongoose';
import { type ChangePosition } from '@fi/shared';
import { buildIndexes, newObjectIdHex } from '@fi/shared/database';
import { FeedbackRepository, FeedbackTombstones } from '../../core';
import { FEEDBACK_TOMBSTONES, feedbackModel, type FeedbackDocument } from '../../core/data';
import { BlockCache, type StoredBlock } from './blockCache';
import { BLOCK_SIZE } from './postingCodec';

/** A posting document as read: one trigram's chunks for one block. */
export interface Posting {
  gram: string;
  block: number;
  chunks: Uint8Array[];
}

/** One organization's indexing: how far it got, and which instance indexes it now. */
interface SearchStateDocument {
  _id: string;
  /** Sequence numbers assigned and indexed: items 0..next-1. */
  next: number;
  /** Every item with a smaller or equal `_id` is indexed (or was removed first); none after it is. */
  watermark?: Types.ObjectId;
  /** Milliseconds the indexer spent on the organization's batches so far (what indexing costs). */
  workMs?: number;
  leaseUntil?: Date;
  holder?: string;
  /** Names this index: a state created again (an index rebuilt) has another, so no cached block of the old one is used. */
  epoch?: string;
  /**
   * The gone list, from the tombstones up to `goneAfter`: sequence numbers (Int32 LE each) of indexed items
   * deleted (for good: `gone`) and merged (`merged`: an unmerge brings one back, so searches check them).
   */
  gone?: Buffer;
  merged?: Buffer;
  goneAfter?: { at: Date; id: string };
}

/** A block: the item ids of `count` sequence numbers from `block * BLOCK_SIZE`, 12 bytes each. */
interface SearchBlockDocument {
  _id: string;
  orgId: string;
  block: number;
  count: number;
  ids: Buffer;
  /** Each item's createdAt (milliseconds, Float64 LE): a block written before they were kept has none. */
  times?: Buffer;
}

/** One trigram's occurrences in one block: chunks appended by the passes that filled the block. */
interface SearchPostingDocument {
  _id: string;
  orgId: string;
  gram: string;
  block: number;
  chunks: Buffer[];
}

/** An organization's indexing as searches and the indexer see it (ids as hex strings). */
export interface SearchState {
  next: number;
  watermark: string | null;
  workMs: number;
  epoch: string;
  /** Indexed items recorded as deleted and as merged (see SearchStateDocument.gone), and the last removal recorded. */
  gone: number[];
  merged: number[];
  goneAfter: ChangePosition | null;
}

/** The gone list as recorded (see SearchStateDocument.gone). */
export type GoneList = Pick<SearchState, 'gone' | 'merged'>;

/** A removal (tombstone) in the order the gone list records them. */
export interface Removal {
  id: string;
  at: Date;
  kind: 'deleted' | 'merged';
}

const seqsOf = (bytes: Buffer | undefined): number[] => {
  const buffer = bytes ? bytesOf(bytes) : Buffer.alloc(0);
  return Array.from({ length: buffer.length / 4 }, (_, i) => buffer.readInt32LE(i * 4));
};

const seqBytes = (seqs: number[]): Buffer => {
  const bytes = Buffer.alloc(seqs.length * 4);
  seqs.forEach((seq, i) => bytes.writeInt32LE(seq, i * 4));
  return bytes;
};

/** An item's searchable fields as the indexer reads them (live or merged). */
export type IndexedText = { id: string } & Partial<
  Pick<FeedbackDocument, 'title' | 'content' | 'author' | 'email' | 'createdAt'>
>;

type TextDocument = Pick<FeedbackDocument, '_id' | 'title' | 'content' | 'author' | 'email' | 'createdAt'>;
const textOf = ({ _id, ...fields }: TextDocument): IndexedText => ({ id: _id.toHexString(), ...fields });
const objectId = (hex: string) => new Types.ObjectId(hex);

const TEXT_FIELDS = { title: 1, content: 1, author: 1, email: 1, createdAt: 1 } as const;
/** Bytes of full blocks kept in memory (one store per service, its searches' and its indexer's): 20 bytes an item, so some 1.6 million items. */
const BLOCK_CACHE_BYTES = 32 * 1024 * 1024;
const NO_REMOVAL: ChangePosition = { at: new Date(0), id: '0'.repeat(24) };
/** Posting documents per bulk write. */
const WRITE_BATCH = 500;

const stateSchema = new Schema<SearchStateDocument>(
  {
    _id: { type: String, required: true },
    next: { type: Number, required: true },
    watermark: Schema.Types.ObjectId,
    workMs: Number,
    leaseUntil: Date,
    holder: String,
    epoch: String,
    gone: Buffer,
    merged: Buffer,
    goneAfter: { type: { at: Date, id: String }, _id: false },
  },
  { collection: 'feedback_search_state', versionKey: false },
);
const blockSchema = new Schema<SearchBlockDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    block: { type: Number, required: true },
    count: { type: Number, required: true },
    ids: { type: Buffer, required: true },
    times: Buffer,
  },
  { collection: 'feedback_search_blocks', versionKey: false },
);
const postingSchema = new Schema<SearchPostingDocument>(
  {
    _id: { type: String, required: true },
    orgId: { type: String, required: true },
    gram: { type: String, required: true },
    block: { type: Number, required: true },
    chunks: { type: [Buffer], default: [] },
  },
  { collection: 'feedback_search_postings', versionKey: false },
);
// A term's postings in one read: the organization and the term's trigrams.
postingSchema.index({ orgId: 1, gram: 1 });
blockSchema.index({ orgId: 1, block: 1 });

// Keys that sort nothing and need no index of their own beside the primary key (written by key).
const blockKey = (orgId: string, block: number) => JSON.stringify([orgId, block]);
const postingKey = (orgId: string, gram: string, block: number) => JSON.stringify([orgId, gram, block]);

/** Bytes of a Binary as the driver hands it back (a Binary, or a Buffer). */
const bytesOf = (value: unknown): Buffer => {
  const binary = value as { buffer?: Uint8Array };
  return binary.buffer instanceof Uint8Array && !(value instanceof Uint8Array)
    ? Buffer.from(binary.buffer)
    : Buffer.from(value as Uint8Array);
};

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

const storedOf = (doc: SearchBlockDocument): StoredBlock => ({
  block: doc.block,
  count: doc.count,
  ids: bytesOf(doc.ids),
  times: doc.times ? bytesOf(doc.times) : null,
});

/**
 * The search index of feedback items (`feedback_search_state`, `feedback_search_blocks`,
 * `feedback_search_postings`): written by the search indexer only (search/searchIndexer.ts), read by
 * searches. See docs/scale.md, "Search".
 */
export class IndexStore {
  private readonly states: Model<SearchStateDocument>;
  private readonly blocks: Model<SearchBlockDocument>;
  private readonly postings: Model<SearchPostingDocument>;
  private readonly items: Model<FeedbackDocument>;
  private readonly repository: FeedbackRepository;
  private readonly tombstones: mongo.Collection;
  private readonly removals: FeedbackTombstones;
  private readonly cache = new BlockCache(BLOCK_CACHE_BYTES);

  constructor(connection: Connection) {
    this.states =
      connection.models.FeedbackSearchState ??
      connection.model<SearchStateDocument>('FeedbackSearchState', stateSchema);
    this.blocks =
      connection.models.FeedbackSearchBlock ??
      connection.model<SearchBlockDocument>('FeedbackSearchBlock', blockSchema);
    this.postings =
      connection.models.FeedbackSearchPosting ??
      connection.model<SearchPostingDocument>('FeedbackSearchPosting', postingSchema);
    this.items = feedbackModel(connection);
    this.repository = new FeedbackRepository(connection);
    this.tombstones = connection.collection(FEEDBACK_TOMBSTONES);
    this.removals = new FeedbackTombstones(connection);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([buildIndexes(this.postings), buildIndexes(this.blocks)]);
  }

  async state(orgId: string): Promise<SearchState | null> {
    const doc = await this.states
      .findById(orgId, { next: 1, watermark: 1, workMs: 1, epoch: 1, gone: 1, merged: 1, goneAfter: 1 })
      .lean<SearchStateDocument>();
    if (!doc) return null;
    return {
      next: doc.next,
      watermark: doc.watermark?.toHexString() ?? null,
      workMs: doc.workMs ?? 0,
      epoch: doc.epoch ?? '',
      gone: seqsOf(doc.gone),
      merged: seqsOf(doc.merged),
      goneAfter: doc.goneAfter ?? null,
    };
  }

  /** Takes (or keeps) the organization's indexing for `leaseMs` unless another instance holds it. */
  async lease(orgId: string, holder: string, leaseMs: number, now = new Date()): Promise<boolean> {
    try {
      const taken = await this.states.findOneAndUpdate(
        { _id: orgId, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lt: now } }, { holder }] },
        {
          $set: { leaseUntil: new Date(now.getTime() + leaseMs), holder },
          $setOnInsert: { next: 0, epoch: newObjectIdHex() },
        },
        { upsert: true, new: true },
      );
      return taken !== null;
    } catch (error) {
      // Another instance created the state first: it holds the lease.
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async release(orgId: string, holder: string): Promise<void> {
    await this.states.updateOne({ _id: orgId, holder }, { $unset: { leaseUntil: 1, holder: 1 } });
  }

  /** Records that items up to `next` (and every `_id` up to `watermark`) are indexed, unless another pass did. */
  async advance(orgId: string, from: number, next: number, watermark: string, workMs = 0): Promise<boolean> {
    try {
      // The first pass of an organization may find no state (its lease creates one; a pass run by hand does not).
      const result = await this.states.updateOne(
        { _id: orgId, next: from },
        { $set: { next, watermark: objectId(watermark) }, $inc: { workMs }, $setOnInsert: { epoch: newObjectIdHex() } },
        { upsert: from === 0 },
      );
      return result.matchedCount + result.upsertedCount === 1;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** A block as stored (its ids, 12 bytes each, and their createdAt), or null when it was never written. */
  async block(orgId: string, block: number): Promise<StoredBlock | null> {
    const doc = await this.blocks
      .findById(blockKey(orgId, block), { block: 1, count: 1, ids: 1, times: 1 })
      .lean<SearchBlockDocument>();
    return doc ? storedOf(doc) : null;
  }

  /**
   * Every block of the index `state` describes, by number. Full blocks never change (a pass writes the
   * next one): they are kept in memory under the index's epoch, and only the open one and those not kept
   * are read.
   */
  async allBlocks(orgId: string, state: Pick<SearchState, 'next' | 'epoch'>): Promise<Map<number, StoredBlock>> {
    const found = new Map<number, StoredBlock>();
    const missing: string[] = [];
    const keyOf = (block: number) => `${orgId}\u0000${state.epoch}\u0000${block}`;
    for (let block = 0; block * BLOCK_SIZE < state.next; block += 1) {
      const kept = this.cache.get(keyOf(block));
      if (kept) found.set(block, kept);
      else missing.push(blockKey(orgId, block));
    }
    if (missing.length > 0) {
      const docs = await this.blocks
        .find({ _id: { $in: missing } }, { block: 1, count: 1, ids: 1, times: 1 })
        .lean<SearchBlockDocument[]>();
      for (const doc of docs) {
        const block = storedOf(doc);
        found.set(block.block, block);
        // A block without times changes when they are filled in (see timesBackfill.ts).
        if (block.count === BLOCK_SIZE && block.times) this.cache.set(keyOf(block.block), block);
      }
    }
    return found;
  }

  /**
   * Writes a block's ids and times (none for a block begun without them), now `count` of each, when it
   * still holds `expected` (none: a new block). This claims the new sequence numbers: false when another pass claimed them first.
   */
  async claimBlock(
    orgId: string,
    block: number,
    expected: number,
    count: number,
    ids: Buffer,
    times: Buffer | null,
  ): Promise<boolean> {
    const _id = blockKey(orgId, block);
    if (expected === 0) {
      try {
        await this.blocks.collection.insertOne({ _id, orgId, block, count, ids, ...(times ? { times } : {}) } as never);
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    }
    // Without times (a block begun without them) the block has none, whatever a backfill wrote meanwhile.
    const result = await this.blocks.updateOne(
      { _id, count: expected },
      times ? { $set: { count, ids, times } } : { $set: { count, ids }, $unset: { times: '' } },
    );
    return result.matchedCount === 1;
  }

  /**
   * Adds one chunk per trigram to the block's postings. A new block's postings do not exist yet (its
   * ids were just claimed, before any posting): they are inserted, far cheaper than upserts; a block
   * that fills up gets its chunks appended.
   */
  async addPostings(orgId: string, block: number, chunks: Map<string, Buffer>, fresh: boolean): Promise<void> {
    const entries = [...chunks];
    for (let at = 0; at < entries.length; at += WRITE_BATCH) {
      const batch = entries.slice(at, at + WRITE_BATCH);
      if (fresh) {
        try {
          await this.postings.collection.insertMany(
            batch.map(
              ([gram, chunk]) =>
                ({ _id: postingKey(orgId, gram, block), orgId, gram, block, chunks: [chunk] }) as never,
            ),
            { ordered: false },
          );
          continue;
        } catch (error) {
          // A pass cut off after some of a new block's postings: append to what it wrote.
          if (!isDuplicateKey(error)) throw error;
        }
      }
      const appends = batch.map(([gram, chunk]) => ({
        updateOne: {
          filter: { _id: postingKey(orgId, gram, block) },
          update: { $push: { chunks: chunk }, $setOnInsert: { orgId, gram, block } },
          upsert: true,
        },
      }));
      await this.postings.bulkWrite(appends, { ordered: false });
    }
  }

  /** Every posting of the organization for these trigrams, whatever the block. */
  async postingsOf(orgId: string, grams: string[]): Promise<Posting[]> {
    const docs = await this.postings
      .find({ orgId, gram: { $in: grams } }, { gram: 1, block: 1, chunks: 1 })
      .lean<SearchPostingDocument[]>();
    return docs.map((doc) => ({ gram: doc.gram, block: doc.block, chunks: doc.chunks.map(bytesOf) }));
  }

  /**
   * The organization's items after `after` up to `upTo` in `_id` order, at most `limit`, with the items
   * merged meanwhile (a merge keeps the item as a tombstone and an unmerge puts it back under its id):
   * items, then merged tombstones, then items again, so an item moved either way during the reads is
   * seen in one of them, in `_id` order. Ids are hex strings (`upTo` may be any, such as a time's).
   */
  async textsAfter(orgId: string, after: string | null, upTo: string, limit: number): Promise<IndexedText[]> {
    const range = (to: Types.ObjectId) => ({ orgId, _id: { ...(after ? { $gt: objectId(after) } : {}), $lte: to } });
    const first = await this.items
      .find(range(objectId(upTo)), TEXT_FIELDS)
      .sort({ _id: 1 })
      .limit(limit)
      .lean<TextDocument[]>();
    const through = first.length === limit ? first[first.length - 1]._id : objectId(upTo);
    const merged = (await this.tombstones
      .find({ ...range(through), kind: 'merged' }, { projection: TEXT_FIELDS })
      .toArray()) as unknown as TextDocument[];
    const again = await this.items.find(range(through), TEXT_FIELDS).lean<TextDocument[]>();
    const byId = new Map<string, IndexedText>();
    for (const doc of [...first, ...merged, ...again]) byId.set(doc._id.toHexString(), textOf(doc));
    return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /**
   * The texts (and createdAt) of these items, live or in a tombstone, for a pass resumed after a crash and
   * for the times backfill: items, then tombstones, then items again, so an item merged or unmerged during
   * the reads is seen in one of them (as textsAfter does).
   */
  async textsOf(orgId: string, ids: string[]): Promise<IndexedText[]> {
    const filter = { orgId, _id: { $in: ids.map(objectId) } };
    const live = () => this.items.find(filter, TEXT_FIELDS).lean<TextDocument[]>();
    const first = await live();
    const gone = (await this.tombstones
      .find(filter, { projection: TEXT_FIELDS })
      .toArray()) as unknown as TextDocument[];
    const again = await live();
    const byId = new Map<string, IndexedText>();
    for (const doc of [...gone, ...first, ...again]) byId.set(doc._id.toHexString(), textOf(doc));
    return [...byId.values()];
  }

  /** True when the organization has items after `after` up to `upTo` (one indexed read: work for a pass). */
  async hasItemsAfter(orgId: string, after: string | null, upTo: string): Promise<boolean> {
    return (
      (await this.items.exists({
        orgId,
        _id: { ...(after ? { $gt: objectId(after) } : {}), $lte: objectId(upTo) },
      })) !== null
    );
  }

  /** Up to `limit` of the organization's blocks written before times were kept. */
  async untimedBlocks(orgId: string, limit: number): Promise<StoredBlock[]> {
    const docs = await this.blocks
      .find({ orgId, times: { $exists: false } }, { block: 1, count: 1, ids: 1 })
      .sort({ block: 1 })
      .limit(limit)
      .lean<SearchBlockDocument[]>();
    return docs.map(storedOf);
  }

  /** Gives a block its times while it still holds `count` ids. */
  async setTimes(orgId: string, block: number, count: number, times: Buffer): Promise<boolean> {
    return (
      (await this.blocks.updateOne({ _id: blockKey(orgId, block), count }, { $set: { times } })).matchedCount === 1
    );
  }

  /** Removals (tombstones) of the organization after `from` and before `before`, oldest first (at most `limit`). */
  async removalsAfter(orgId: string, from: ChangePosition | null, before: Date, limit: number): Promise<Removal[]> {
    return this.removals.removedAfter(orgId, from ?? NO_REMOVAL, before, limit);
  }

  /** Records the gone list as of the removal `after`, unless another pass moved it meanwhile. */
  async recordGone(
    orgId: string,
    previous: ChangePosition | null,
    list: GoneList,
    after: ChangePosition,
  ): Promise<boolean> {
    const unchanged = previous
      ? { 'goneAfter.at': previous.at, 'goneAfter.id': previous.id }
      : { goneAfter: { $exists: false } };
    const result = await this.states.updateOne(
      { _id: orgId, ...unchanged },
      { $set: { gone: seqBytes(list.gone), merged: seqBytes(list.merged), goneAfter: { at: after.at, id: after.id } } },
    );
    return result.matchedCount === 1;
  }

  /** Which of these ids are the organization's live items. */
  liveAmong(orgId: string, ids: string[]): Promise<Set<string>> {
    return this.repository.liveAmong(orgId, ids);
  }

  /** The organization's live items after `watermark` (not indexed yet). */
  liveAfter(orgId: string, watermark: string): Promise<number> {
    return this.repository.countAfterId(orgId, watermark);
  }

  /** The organization's newest item id (the bench waits until the index reaches it). */
  async newestId(orgId: string): Promise<string | null> {
    return (await this.newestIdsAfter(orgId, null, 1))[0] ?? null;
  }

  /**
   * The ids of the organization's newest `limit` items after `after` (null: any), newest first: one range
   * of the (organization, `_id`) index read in order and cut at the limit, on every engine.
   */
  async newestIdsAfter(orgId: string, after: string | null, limit: number): Promise<string[]> {
    const docs = await this.items
      .find({ orgId, ...(after ? { _id: { $gt: new Types.ObjectId(after) } } : {}) }, { _id: 1 })
      .sort({ _id: -1 })
      .limit(limit)
      .lean<Array<{ _id: Types.ObjectId }>>();
    return docs.map((doc) => doc._id.toHexString());
  }

  /** Sizes of the organization's index, for the bench: documents and bytes of postings and blocks. */
  async sizeOf(orgId: string): Promise<{ postings: number; postingBytes: number; blocks: number; items: number }> {
    const [postings, blocks] = await Promise.all([
      this.postings.find({ orgId }, { chunks: 1 }).lean<SearchPostingDocument[]>(),
      this.blocks.find({ orgId }, { count: 1 }).lean<SearchBlockDocument[]>(),
    ]);
    const postingBytes = postings.reduce(
      (sum, doc) => sum + doc.chunks.reduce((bytes, chunk) => bytes + bytesOf(chunk).length, 0),
      0,
    );
    return {
      postings: postings.length,
      postingBytes,
      blocks: blocks.length,
      items: blocks.reduce((sum, doc) => sum + doc.count, 0),
    };
  }
}
