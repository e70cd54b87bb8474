import { Schema, Types, type Model } from 'mongoose';
import { connectMongo, IdReads, OrgScopedRepository, type Connection } from '@fi/shared/database';
import { ownDatabaseName } from './helpers/stack';

/**
 * Reads by id asked for in one turn of the event loop go to the database as one read (see
 * shared/src/data/idReads.ts): under load a subgraph answers many single-record reads at once. Each
 * caller still gets exactly its record, and only if it belongs to the caller's organization.
 */
interface RecordDocument {
  _id: Types.ObjectId;
  orgId: string;
  name: string;
  createdAt: Date;
}

let connection: Connection;
let model: Model<RecordDocument>;
let repository: OrgScopedRepository<RecordDocument, { id: string; name: string }>;
const ids = Array.from({ length: 250 }, () => new Types.ObjectId());
const orgOf = (n: number) => (n % 2 ? 'org-odd' : 'org-even');

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGODB_URI as string, ownDatabaseName('fi_id_reads'));
  model = connection.model<RecordDocument>(
    'IdReadRecord',
    new Schema<RecordDocument>({ orgId: String, name: String, createdAt: Date }, { collection: 'records' }),
  );
  await model.collection.insertMany(
    ids.map((_id, n) => ({ _id, orgId: orgOf(n), name: `record ${n}`, createdAt: new Date() })),
  );
  repository = new OrgScopedRepository(model, (doc) => ({ id: doc._id.toHexString(), name: doc.name }));
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

/** IdReads over the collection, recording the ids of every read it sends. */
function countedReads() {
  const sent: string[][] = [];
  const reads = new IdReads<RecordDocument>(async (batch) => {
    sent.push(batch.map((id) => id.toHexString()));
    return model.collection.find<RecordDocument>({ _id: { $in: batch } }).toArray();
  });
  return { reads, sent };
}

test('when records are read by id in one turn, then one read fetches them all and each caller gets its own', async () => {
  const { reads, sent } = countedReads();
  const wanted = [...ids.slice(0, 30), ids[3], ids[3], new Types.ObjectId()];

  const docs = await Promise.all(wanted.map((id) => reads.load(id)));

  expect(sent).toHaveLength(1);
  expect(sent[0]).toHaveLength(31); // 30 records, the repeated one once, and the absent id
  expect(docs.slice(0, 32).map((doc) => doc?.name)).toEqual([
    ...Array.from({ length: 30 }, (_, n) => `record ${n}`),
    'record 3',
    'record 3',
  ]);
  expect(docs[32]).toBeNull();
});

test('when more than 100 records are read in one turn, then they go in reads of at most 100', async () => {
  const { reads, sent } = countedReads();

  const docs = await Promise.all(ids.map((id) => reads.load(id)));

  expect(sent.map((batch) => batch.length)).toEqual([100, 100, 50]);
  expect(docs.map((doc) => doc?._id.toHexString())).toEqual(ids.map((id) => id.toHexString()));
});

test('when reads are asked for in different turns, then each turn sends its own', async () => {
  const { reads, sent } = countedReads();

  expect((await reads.load(ids[0]))?.name).toBe('record 0');
  expect((await reads.load(ids[1]))?.name).toBe('record 1');

  expect(sent).toEqual([[ids[0].toHexString()], [ids[1].toHexString()]]);
});

test('when the read fails, then every caller of its turn gets the error, and the next turn reads again', async () => {
  let fail = true;
  const reads = new IdReads<RecordDocument>(async (batch) => {
    if (fail) throw new Error('database unavailable');
    return model.collection.find<RecordDocument>({ _id: { $in: batch } }).toArray();
  });

  const results = await Promise.allSettled([reads.load(ids[0]), reads.load(ids[1])]);
  fail = false;

  expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  expect((await reads.load(ids[1]))?.name).toBe('record 1');
});

test('when two organizations read records in one turn, then each gets only its own organization’s', async () => {
  const even = [0, 2, 4].map((n) => ids[n].toHexString());
  const odd = [1, 3, 5].map((n) => ids[n].toHexString());

  const [evenAsEven, oddAsEven, oddAsOdd, evenAsEither] = await Promise.all([
    Promise.all(even.map((id) => repository.findById('org-even', id))),
    Promise.all(odd.map((id) => repository.findById('org-even', id))),
    Promise.all(odd.map((id) => repository.findById('org-odd', id))),
    Promise.all(even.map((id) => repository.findById(['org-odd', 'org-even'], id))),
  ]);

  expect(evenAsEven.map((item) => item?.id)).toEqual(even);
  expect(oddAsEven).toEqual([null, null, null]);
  expect(oddAsOdd.map((item) => item?.id)).toEqual(odd);
  expect(evenAsEither.map((item) => item?.id)).toEqual(even);
  expect(await repository.findById('org-even', 'not-an-id')).toBeNull();
});
