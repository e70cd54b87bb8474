import { Types } from 'mongoose';
import { connectMongo, type Connection } from '@fi/shared/database';
import { ownDatabaseName } from './helpers/stack';

/**
 * Single records (feedbackItem, contactItem, accountItem, entity lookups, status changes, removals) are
 * read and written by `_id` alone because that is the one filter every MongoDB-compatible server answers
 * from its primary key. On FerretDB this holds only for the build that filters on its own `_id` index
 * expression (cli/src/embedded/ferretdb.ts): the stock v1.24.2 scans the collection instead.
 */
describe('a lone _id filter on the test database', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connectMongo(process.env.MONGODB_URI as string, ownDatabaseName('fi_id_lookup'));
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  test('when the newest of many records is read by _id, then the _id index finds it without a scan', async () => {
    const ids = Array.from({ length: 200 }, () => new Types.ObjectId());
    await connection.collection('records').insertMany(ids.map((_id, n) => ({ _id, orgId: 'org', n })));
    const newest = ids[ids.length - 1];

    const explained = await connection.db?.command({
      explain: { find: 'records', filter: { _id: newest }, limit: 1, singleBatch: true },
      verbosity: 'executionStats',
    });

    const ferretDb = explained?.serverInfo?.ferretdbVersion !== undefined;
    // FerretDB reports SQLite's plan: "SEARCH <table> USING INDEX <table>__id_" or "SCAN <table>".
    if (ferretDb) expect(JSON.stringify(explained?.queryPlanner?.Plan)).toMatch(/SEARCH \S+ USING INDEX \S+__id_ /);
    else expect(explained?.executionStats?.totalDocsExamined).toBe(1);
    expect(await connection.collection('records').findOne({ _id: newest })).toEqual(
      expect.objectContaining({ n: ids.length - 1 }),
    );
  });

  // The backfills' conditional writes: `_id` and a condition on another key.
  test('when _id comes with other conditions, then the _id index narrows the read and every condition still applies', async () => {
    const ids = Array.from({ length: 200 }, () => new Types.ObjectId());
    await connection
      .collection('conditional')
      .insertMany(ids.map((_id, n) => ({ _id, orgId: 'org', n, ...(n % 2 ? { key: 'set' } : {}) })));
    const [withKey, withoutKey] = [ids[ids.length - 1], ids[ids.length - 2]];
    const absent = { key: { $exists: false } };

    const explained = await connection.db?.command({
      explain: { find: 'conditional', filter: { _id: withoutKey, ...absent }, limit: 1, singleBatch: true },
      verbosity: 'executionStats',
    });

    if (explained?.serverInfo?.ferretdbVersion !== undefined) {
      expect(JSON.stringify(explained?.queryPlanner?.Plan)).toMatch(/SEARCH \S+ USING INDEX \S+__id_ /);
      // Only part of the filter went to SQLite: FerretDB must not claim the whole of it did.
      expect(explained?.filterPushdown).toBe(false);
    } else expect(explained?.executionStats?.totalDocsExamined).toBe(1);
    const records = connection.collection('conditional');
    expect(await records.findOne({ _id: withoutKey, ...absent })).toEqual(
      expect.objectContaining({ n: ids.length - 2 }),
    );
    expect(await records.findOne({ _id: withKey, ...absent })).toBeNull();
    expect(await records.findOne({ _id: withKey, n: ids.length - 1, key: 'set' })).toEqual(
      expect.objectContaining({ n: ids.length - 1 }),
    );
    expect((await records.updateOne({ _id: withKey, ...absent }, { $set: { key: 'new' } })).modifiedCount).toBe(0);
    expect((await records.updateOne({ _id: withoutKey, ...absent }, { $set: { key: 'new' } })).modifiedCount).toBe(1);
    expect(await records.countDocuments({ key: 'new' })).toBe(1);
  });

  // A theme computation's batch or a seed's counts: one update command of many statements. The stock
  // v1.24.2 held each statement's read on one of the database's 100 connections until the command
  // returned, so about 100 statements hung the command and every later request to the database.
  test('when one bulk write updates 250 records by _id, then it finishes and the database keeps answering', async () => {
    const ids = Array.from({ length: 250 }, () => new Types.ObjectId());
    const records = connection.collection('bulk');
    await records.insertMany(ids.map((_id, n) => ({ _id, n })));

    const result = await records.bulkWrite(
      ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { themed: true } } } })),
      { ordered: false, timeoutMS: 60_000 },
    );

    expect(result.modifiedCount).toBe(ids.length);
    expect(await records.countDocuments({ themed: true }, { timeoutMS: 10_000 })).toBe(ids.length);
  });
});
