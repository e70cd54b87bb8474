import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { connectMongo, type Connection } from '@fi/shared';

/**
 * Single records (feedbackItem, contactItem, accountItem, entity lookups, status changes, removals) are
 * read and written by `_id` alone because that is the one filter every MongoDB-compatible server answers
 * from its primary key. On FerretDB this holds only for the build that filters on its own `_id` index
 * expression (cli/src/embedded/ferretdb.ts): the stock v1.24.2 scans the collection instead.
 */
describe('a lone _id filter on the test database', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connectMongo(process.env.MONGODB_URI as string, `fi_id_lookup_${randomUUID().slice(0, 8)}`);
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
    expect(await connection.collection('records').findOne({ _id: newest })).toEqual(expect.objectContaining({ n: ids.length - 1 }));
  });
});
