import { Types, type Collection } from 'mongoose';
import { connectMongo, type Connection } from '@fi/shared/database';
import { PrivateDatabase } from './helpers/privateDatabase';

/**
 * The embedded build pushes filters, sorts and limits down to SQLite (cli/src/embedded/ferretdbPushdown.go).
 * It must never change what a query answers: the same random queries go to a server with the pushdown and
 * to one without it (FERRETDB_SQLITE_PUSHDOWN=off, FerretDB's own reading) over the same documents, and
 * the answers must be the same documents in the same order. Only the embedded build has the pushdown.
 */
const onEmbedded = process.env.FERRETDB_BIN ? describe : describe.skip;

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  return { next, pick, int: (below: number) => Math.floor(next() * below) };
}

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 1);
const ORGS = ['org-a', 'org-b'];
const STATUSES = ['unread', 'read', 'archived'];
const SENTIMENTS = ['positive', 'neutral', 'negative', null];
// Texts whose JSON differs from the text (escapes), so equality is checked on them too.
const TITLES = ['plain', 'a<b', 'a&b', 'é', 'a"b', 'a b', 'a\\b', '65a1b2c3d4e5f6a7b8c9d0e1'];
// Elements of an array field (as an item's themes): among them the texts of an ObjectId and of an embedded
// document, which a SQL comparison of element texts would take for those values (FerretDB stores no
// nested arrays).
const TAGS = ['billing', 'a"b', 'é', '65a1b2c3d4e5f6a7b8c9d0e1', '{"x":1}'];
const LOOKALIKES = [new Types.ObjectId('65a1b2c3d4e5f6a7b8c9d0e1'), { x: 1 }];

type Doc = Record<string, unknown>;
type Rand = ReturnType<typeof random>;

/** Mostly the shapes the services store; with `mixed`, each field also holds other types now and then. */
function document(r: Rand, ids: Types.ObjectId[], mixed: boolean): Doc {
  const _id = new Types.ObjectId();
  ids.push(_id);
  const doc: Doc = {
    _id,
    orgId: r.pick(ORGS),
    status: r.pick(STATUSES),
    createdAt: new Date(BASE + r.int(20) * DAY),
    publishedDate: new Date(BASE + r.int(40) * DAY),
    title: r.pick(TITLES),
  };
  const sentiment = r.pick([...SENTIMENTS, undefined]);
  if (sentiment !== undefined) doc.sentiment = sentiment;
  if (r.next() < 0.3) doc.contactId = r.pick(ids);
  if (r.next() < 0.6) doc.tags = Array.from({ length: r.int(3) }, () => r.pick(TAGS));
  if (!mixed || r.next() < 0.7) return doc;
  if (r.next() < 0.3) {
    doc.tags = r.pick([r.pick(TAGS), null, [r.pick(TAGS), r.pick(LOOKALIKES)]]);
    return doc;
  }
  const odd = r.pick(['array', 'oldDate', 'null', 'string', 'number', 'objectId'] as const);
  const field = r.pick(['status', 'publishedDate', 'createdAt', 'title', 'contactId', 'sentiment']);
  doc[field] = {
    array: [r.pick(STATUSES), r.pick(TITLES)],
    oldDate: new Date(Date.UTC(1995, 0, 1) + r.int(40) * DAY),
    null: null,
    string: r.pick(TITLES),
    number: r.int(3),
    objectId: r.pick(ids),
  }[odd];
  return doc;
}

/** One pushable condition (or, now and then, one that is not, which must leave the rest correct). */
function condition(r: Rand, ids: Types.ObjectId[]): Doc {
  const date = () => new Date(BASE + r.int(42) * DAY - DAY);
  switch (r.int(13)) {
    case 0:
      return { orgId: r.pick(ORGS) };
    case 1:
      return { status: r.next() < 0.5 ? r.pick(STATUSES) : { $in: [r.pick(STATUSES), r.pick(STATUSES)] } };
    case 2:
      return { sentiment: r.next() < 0.5 ? r.pick(SENTIMENTS) : { $in: [...SENTIMENTS].filter(() => r.next() < 0.7) } };
    case 3:
      return { title: r.next() < 0.7 ? r.pick(TITLES) : { $eq: r.pick(TITLES) } };
    case 4:
      return {
        [r.pick(['createdAt', 'publishedDate'])]: {
          [r.pick(['$gt', '$gte', '$lt', '$lte'])]: date(),
          ...(r.next() < 0.4 ? { $lt: date() } : {}),
        },
      };
    case 5:
      return { _id: { [r.pick(['$gt', '$gte', '$lt', '$lte'])]: r.pick(ids) } };
    case 6:
      return { contactId: r.next() < 0.7 ? r.pick(ids) : null };
    case 7:
      return { $or: [condition(r, ids), condition(r, ids)] };
    case 8:
      return { $and: [condition(r, ids), condition(r, ids)] };
    case 9: {
      const at = date();
      return { $or: [{ createdAt: { $lt: at } }, { createdAt: at, _id: { $lt: r.pick(ids) } }] };
    }
    case 10:
      return { tags: r.next() < 0.7 ? r.pick(TAGS) : { $eq: r.pick(TAGS) } };
    case 11:
      // Longer than SQLite's expression depth (1,000) as an OR chain, with ids that match nothing and a null.
      return {
        [r.pick(['_id', 'contactId'])]: {
          $in: [
            ...Array.from({ length: 1_200 }, () => new Types.ObjectId()),
            ...ids.filter(() => r.next() < 0.2),
            ...(r.next() < 0.5 ? [null] : []),
          ],
        },
      };
    default:
      return r.pick([
        { title: { $regex: 'a' } },
        { sentiment: { $exists: false } },
        { status: { $ne: 'read' } },
        { publishedDate: { $type: 'date' } },
      ]);
  }
}

interface Query {
  filter: Doc;
  sort: Doc;
  skip: number;
  limit: number;
}

function query(r: Rand, ids: Types.ObjectId[]): Query {
  const filter = Object.assign({}, ...Array.from({ length: 1 + r.int(3) }, () => condition(r, ids))) as Doc;
  // Every sort ends with _id, so the order is total and both servers must agree on it.
  const sort = r.pick([
    {},
    { createdAt: -1, _id: -1 },
    { publishedDate: 1, _id: 1 },
    { _id: 1 },
    { _id: -1 },
    { title: 1, _id: 1 },
  ]);
  const sorted = Object.keys(sort).length > 0;
  return { filter, sort, skip: sorted ? r.pick([0, 0, 3]) : 0, limit: sorted ? r.pick([0, 1, 5, 25]) : 0 };
}

onEmbedded('the embedded build reads what FerretDB reads without its pushdown', () => {
  const databases: PrivateDatabase[] = [];
  let pushed: Connection;
  let plain: Connection;

  beforeAll(async () => {
    databases.push(await PrivateDatabase.start(), await PrivateDatabase.start({ FERRETDB_SQLITE_PUSHDOWN: 'off' }));
    [pushed, plain] = await Promise.all(databases.map((database) => connectMongo(database.uri, 'pushdown')));
  });
  afterAll(async () => {
    await Promise.all([pushed, plain].map((connection) => connection?.close()));
    await Promise.all(databases.map((database) => database.destroy()));
  });

  const both = async (write: (connection: Connection) => Promise<unknown>) => {
    await write(pushed);
    await write(plain);
  };

  async function compare(collection: string, r: Rand, ids: Types.ObjectId[], count: number): Promise<void> {
    // Each element value alone first (lookalikes the SQL comparison would also select), then random queries.
    const queries = [
      ...TAGS.map((tag) => ({ filter: { tags: tag }, sort: { createdAt: -1, _id: -1 }, skip: 0, limit: 5 })),
      ...Array.from({ length: count }, () => query(r, ids)),
    ];
    for (const { filter, sort, skip, limit } of queries) {
      const read = (connection: Connection) =>
        sort && Object.keys(sort).length > 0
          ? connection
              .collection(collection)
              .find(filter)
              .sort(sort as Record<string, 1 | -1>)
              .skip(skip)
              .limit(limit)
              .toArray()
          : connection.collection(collection).find(filter).toArray();
      const [got, expected] = await Promise.all([read(pushed), read(plain)]);
      const order = (docs: Doc[]) =>
        Object.keys(sort).length > 0 ? docs : [...docs].sort((a, b) => String(a._id).localeCompare(String(b._id)));
      const described = JSON.stringify({ collection, filter, sort, skip, limit });
      expect({ query: described, docs: order(got) }).toEqual({ query: described, docs: order(expected) });
      // Counts go down as one empty row per match when the WHERE is exact: countDocuments (an aggregation,
      // also with skip and limit stages) and the count command.
      const counts = (connection: Connection) =>
        Promise.all([
          connection.collection(collection).countDocuments(filter),
          connection.collection(collection).countDocuments(filter, limit > 0 ? { skip, limit } : { skip }),
          connection
            .getClient()
            .db(connection.name)
            .command({ count: collection, query: filter })
            .then((answer) => answer.n as number),
          // Not a count: grouped by a field, it needs the documents. The groups are ordered here: FerretDB
          // orders an array among strings by the order the documents came in.
          connection
            .collection(collection)
            .aggregate([{ $match: filter }, { $group: { _id: '$status', n: { $sum: 1 } } }])
            .toArray()
            .then((groups) => groups.map((group) => JSON.stringify(group)).sort()),
        ]);
      const [counted, expectedCounts] = await Promise.all([counts(pushed), counts(plain)]);
      expect({ query: described, counts: counted }).toEqual({ query: described, counts: expectedCounts });
    }
  }

  test.each([
    ['the fields hold only the types the services store', 'clean', false, 1],
    ['the fields also hold arrays, nulls, old dates, numbers and mixed types', 'mixed', true, 2],
  ])(
    'when %s, then random filters, sorts, skips and limits answer the same documents with and without the pushdown',
    async (_, collection, mixed, seed) => {
      const r = random(seed as number);
      const ids: Types.ObjectId[] = [];
      const docs = Array.from({ length: 400 }, () => document(r, ids, mixed as boolean));
      await both(async (connection) => {
        const records = connection.collection(collection as string);
        await records.createIndex({ orgId: 1, status: 1, sentiment: 1, createdAt: -1, _id: -1 });
        await records.createIndex({ orgId: 1, publishedDate: -1 });
        // An index naming an array field: the embedded build keeps its elements (see fi_elements.go).
        await records.createIndex({ orgId: 1, tags: 1, createdAt: -1, _id: -1 });
        await records.insertMany(docs.map((doc) => ({ ...doc })));
      });
      await compare(collection as string, r, ids, 150);

      // Kinds recorded after the first reads: a later insert, upsert and update bring arrays, old dates and
      // array elements that are not strings.
      const later = { ...document(r, ids, false), status: ['read', 'unread'], title: ['plain', 'a<b'] };
      const upsert: Doc = {
        ...document(r, ids, false),
        sentiment: [r.pick(SENTIMENTS), 'other'],
        publishedDate: new Date(Date.UTC(1998, 0, 1)),
      };
      const { _id: upsertedId, ...upserted } = upsert;
      await both(async (connection) => {
        const records = connection.collection(collection as string);
        await records.insertOne({ ...later });
        await records.updateOne({ _id: upsertedId as Types.ObjectId }, { $set: { ...upserted } }, { upsert: true });
        await records.updateOne(
          { _id: ids[0] },
          { $set: { createdAt: new Date(Date.UTC(1999, 0, 1)), contactId: [ids[1], ids[2]] } },
        );
        await records.updateOne({ _id: ids[1] }, { $set: { tags: ['billing', LOOKALIKES[0]] } });
      });
      await compare(collection as string, r, ids, 100);
    },
  );

  test.each([
    [
      'inserted',
      'viaInsert',
      (records: Collection, extra: Doc) => records.insertOne({ ...extra, tags: [LOOKALIKES[1], 'billing'] }),
    ],
    [
      'updated',
      'viaUpdate',
      (records: Collection, _extra: Doc, ids: Types.ObjectId[]) =>
        records.updateOne({ _id: ids[3] }, { $set: { tags: [LOOKALIKES[0], 'é'] } }),
    ],
  ])(
    'when an array of strings gets an element of another type %s, then equality on its elements still answers the same, as do its documents updated and deleted',
    async (_, collection, write) => {
      const r = random(3);
      const ids: Types.ObjectId[] = [];
      const docs = Array.from({ length: 150 }, () => document(r, ids, false));
      await both((connection) => connection.collection(collection).insertMany(docs.map((doc) => ({ ...doc }))));
      await compare(collection, r, ids, 10);
      // Indexed once the documents are there: their elements are kept from then on.
      await both((connection) => connection.collection(collection).createIndex({ tags: 1 }));
      await compare(collection, r, ids, 20);
      const extra = document(r, ids, false);
      await both((connection) => write(connection.collection(collection), extra, ids));
      await compare(collection, r, ids, 20);
      await both(async (connection) => {
        const records = connection.collection(collection);
        // A document deleted and inserted again under its _id without its elements must not keep them.
        await records.updateOne({ _id: ids[4] }, { $set: { tags: ['billing', 'a"b'] } });
        await records.deleteMany({ _id: { $in: ids.slice(4, 40) } });
        await records.insertOne({ ...docs[4], tags: ['é'] });
        await records.updateMany({ _id: { $in: ids.slice(40, 60) } }, { $unset: { tags: '' } });
        await records.updateMany({ _id: { $in: ids.slice(60, 80) } }, { $set: { tags: ['billing', 'é'] } });
        await records.updateOne({ _id: ids[80] }, { $set: { status: 'read' } });
      });
      await compare(collection, r, ids, 30);
    },
  );
});
