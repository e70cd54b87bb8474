import { connectMongo, type Connection } from '@fi/shared/database';
import { ownDatabaseName } from './helpers/stack';

/**
 * The embedded build writes the documents an update command modifies or upserts in batches (cli/src/
 * embedded/ferretdbUpdateBatch.go). What an update answers and leaves must stay MongoDB's: each statement
 * reads what the earlier ones wrote, a multi-document update writes every match, an upsert inserts once,
 * and a failure keeps what came before it. It also runs updates, findAndModify and deletes one at a time per
 * collection (cli/src/embedded/ferretdbWriteLocks.go), so that concurrent writes of one document are atomic.
 * Asserted on whichever engine the tests run against (MongoDB gives these answers).
 */
describe('update commands', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connectMongo(process.env.MONGODB_URI as string, ownDatabaseName('updates'));
  });
  afterAll(async () => {
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  });

  type Doc = { _id: string; n?: number; m?: number; u?: string; tags?: string | string[]; pending?: string[] };
  const inc = (_id: string) => ({ updateOne: { filter: { _id }, update: { $inc: { n: 1 } } } });

  test('when 40 updates of one document arrive at once from two clients, then each is applied (an update is atomic per document)', async () => {
    const other = await connectMongo(process.env.MONGODB_URI as string, connection.name);
    try {
      const docs = connection.collection<Doc>('atomic');
      await docs.insertOne({ _id: 'cell', n: 0 });
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? other : connection).collection<Doc>('atomic').updateOne({ _id: 'cell' }, { $inc: { n: 1 } }),
        ),
      );
      expect(await docs.findOne({ _id: 'cell' })).toEqual({ _id: 'cell', n: 40 });
    } finally {
      await other.close();
    }
  });

  test('when 20 updates, 20 findOneAndUpdates or 20 updates and deletes conditional on one value arrive at once, then exactly one of each group applies', async () => {
    const docs = connection.collection<Doc>('conditional');
    await docs.insertMany([
      { _id: 'update', u: 'open' },
      { _id: 'claim', u: 'open' },
    ]);
    const updates = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        docs.updateOne({ _id: 'update', u: 'open' }, { $set: { u: 'closed', n: i } }),
      ),
    );
    expect(updates.filter((result) => result.modifiedCount === 1)).toHaveLength(1);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        docs.findOneAndUpdate({ _id: 'claim', u: 'open' }, { $set: { u: 'taken', n: i } }),
      ),
    );
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    // A delete conditional on the same value either comes first (nothing left to change) or finds it changed.
    await docs.insertOne({ _id: 'removal', u: 'open' });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        i % 2
          ? (await docs.deleteOne({ _id: 'removal', u: 'open' })).deletedCount
          : (await docs.updateOne({ _id: 'removal', u: 'open' }, { $set: { u: 'closed' } })).modifiedCount,
      ),
    );
    expect(outcomes.filter((n) => n === 1)).toHaveLength(1);
  });

  test('when a bulk write changes one document several times, updates many and filters on what it wrote, then every statement sees the earlier ones', async () => {
    const docs = connection.collection<Doc>('several');
    await docs.insertMany(['a', 'b', 'c'].map((_id) => ({ _id, n: 0 })));
    await docs.bulkWrite([
      inc('a'),
      inc('b'),
      inc('a'),
      { updateMany: { filter: {}, update: { $inc: { m: 1 } } } },
      inc('a'),
      { updateOne: { filter: { n: 3 }, update: { $inc: { n: 10 } } } },
      { updateOne: { filter: { _id: 'new' }, update: { $inc: { n: 1 } }, upsert: true } },
      inc('new'),
    ]);
    expect(await docs.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', n: 13, m: 1 },
      { _id: 'b', n: 1, m: 1 },
      { _id: 'c', n: 0, m: 1 },
      { _id: 'new', n: 2 },
    ]);
  });

  test('when an update matches more documents than one write holds, then it changes each of them once', async () => {
    const docs = connection.collection<Doc>('many');
    await docs.insertMany(Array.from({ length: 450 }, (_, i) => ({ _id: `d${i}`, n: i })));
    const result = await docs.updateMany(
      { _id: { $in: Array.from({ length: 450 }, (_, i) => `d${i}`) } },
      { $inc: { n: 1 } },
    );
    expect(result.modifiedCount).toBe(450);
    const all = await docs.find().toArray();
    expect(all.every((doc) => doc.n === Number(doc._id.slice(1)) + 1)).toBe(true);
  });

  test('when an ordered bulk write breaks a unique index, then the statements before it are written and the ones after it are not', async () => {
    const docs = connection.collection<Doc>('unique');
    await docs.insertMany([
      { _id: 'a', n: 0 },
      { _id: 'b', n: 0 },
      { _id: 'c', n: 0, u: 'x' },
      { _id: 'd', n: 0, u: 'y' },
    ]);
    await docs.createIndex({ u: 1 }, { unique: true, sparse: true });
    await expect(
      docs.bulkWrite(
        [inc('a'), inc('b'), { updateOne: { filter: { _id: 'c' }, update: { $set: { u: 'y' } } } }, inc('d')],
        { ordered: true },
      ),
    ).rejects.toThrow();
    expect(
      await docs
        .find({}, { projection: { u: 0 } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 1 },
      { _id: 'c', n: 0 },
      { _id: 'd', n: 0 },
    ]);
  });

  test('when a bulk write upserts new documents between updates of existing ones, over more than one write, then each is inserted or updated once and reads find the new ones', async () => {
    const docs = connection.collection<Doc>('upserts');
    await docs.insertMany(Array.from({ length: 150 }, (_, i) => ({ _id: `old${i}`, n: 0, tags: 'a' })));
    // An array where the collection held only strings: a read by `tags` must know the new kind to find them.
    const upsert = (i: number) => ({
      updateOne: {
        filter: { _id: `new${i}` },
        update: { $inc: { n: 1 }, $setOnInsert: { tags: ['a', 'b'] } },
        upsert: true,
      },
    });
    const result = await docs.bulkWrite(Array.from({ length: 150 }, (_, i) => [upsert(i), inc(`old${i}`)]).flat());
    expect([result.upsertedCount, result.modifiedCount]).toEqual([150, 150]);
    const all = await docs.find().toArray();
    expect(all).toHaveLength(300);
    expect(all.every((doc) => doc.n === 1)).toBe(true);
    expect(await docs.countDocuments({ tags: 'a' })).toBe(300);
    expect((await docs.find({ tags: 'b' }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id).sort()).toEqual(
      Array.from({ length: 150 }, (_, i) => `new${i}`).sort(),
    );
  });

  test('when an ordered bulk write upserts a document that exists (its filter missed it), then the statements before it are written and the ones after it are not', async () => {
    const docs = connection.collection<Doc>('clash');
    await docs.insertMany([
      { _id: 'a', n: 0, pending: ['c1'] },
      { _id: 'b', n: 0 },
    ]);
    const counted = (_id: string) => ({
      updateOne: {
        filter: { _id, pending: { $ne: 'c1' } },
        update: { $inc: { n: 1 }, $push: { pending: 'c1' } },
        upsert: true,
      },
    });
    await expect(
      docs.bulkWrite([counted('new1'), inc('b'), counted('a'), counted('new2'), inc('b')], { ordered: true }),
    ).rejects.toThrow(/duplicate key/);
    expect(await docs.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', n: 0, pending: ['c1'] },
      { _id: 'b', n: 1 },
      { _id: 'new1', n: 1, pending: ['c1'] },
    ]);
  });
});
