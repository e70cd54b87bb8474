import { Types, type Connection } from 'mongoose';
import {
  backfillTimes,
  feedbackImporter,
  indexOrganization,
  recountOrganization,
  SearchIndexStore,
  startSearchIndexer,
} from '@fi/feedback';
import { createLogger, escapeRegExp } from '@fi/shared';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

/**
 * `feedbackItems(search:)` served by the search index answers exactly what the regex over the items
 * answers (the oracle below reads the items with that regex), with every filter, `after` and `skip`,
 * through removals, merges and unmerges, for items not indexed yet, across organizations, and after an
 * indexing pass cut off midway or run twice at once.
 */

const MERGE =
  'mutation($k: String!, $id: String!, $ids: [String!]!) { mergeFeedbackItems(apiKey: $k, id: $id, duplicateIds: $ids) { id } }';
const UNMERGE = 'mutation($k: String!, $id: String!) { unmergeFeedbackItem(apiKey: $k, id: $id) { id } }';
const STATUS =
  'mutation($k: String!, $id: String!, $s: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: $s) { id } }';
const LIST = `query($k: String!, $search: String, $status: String, $sentiment: String, $source: String, $publishedAfter: DateTime, $publishedBefore: DateTime, $take: Int, $skip: Int, $after: String) {
  feedbackItems(apiKey: $k, search: $search, status: $status, sentiment: $sentiment, source: $source, publishedAfter: $publishedAfter, publishedBefore: $publishedBefore, take: $take, skip: $skip, after: $after) { total items { id } nextCursor }
}`;

const WORDS = [
  'Export',
  'export fails',
  'EXPORTS',
  'report',
  'porter',
  'Ölfeld',
  'ölfeld',
  'naïve',
  'naive',
  'a.b*c',
  '(x)',
  'exp ort',
  'Straße',
  'café',
  'CAFÉ',
  'login',
  'billing',
];
const TERMS = [
  'export',
  'EXPORT',
  'xport fa',
  'rt fai',
  'port',
  'ölf',
  'ÖLFELD',
  'naï',
  'a.b*c',
  '(x)',
  'zzz',
  '.example',
  'straße',
  'CAFÉ',
  'cafe',
  'ex',
  'é',
  'ogin b',
];
const SOURCES = ['api', 'email', 'chat'];
const SENTIMENTS = ['positive', 'neutral', 'negative'];

interface Filters {
  status?: string;
  sentiment?: string;
  source?: string;
  publishedAfter?: string;
  publishedBefore?: string;
  take?: number;
  skip?: number;
}

interface Page {
  total: number;
  items: Array<{ id: string }>;
  nextCursor: string | null;
}

let stack: Stack;
let feedback: Connection;
let store: SearchIndexStore;
// A seeded generator, so a failure repeats.
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)];

beforeAll(async () => {
  // No background indexing: the tests run passes themselves, in this process.
  stack = await startStack({ SEARCH_INDEX_INTERVAL_MS: '0' }, { databases: { feedback: ownDatabaseName('search') } });
  feedback = await stack.connect('feedback');
  store = new SearchIndexStore(feedback);
});
afterAll(() => stack.close());

/** A pass that takes every item created so far (their `_id`s' seconds are before "now"). */
const indexAll = (orgId: string, on = store) =>
  indexOrganization(on, orgId, { graceMs: 0 }, () => new Date(Date.now() + 2_000));

async function addItems(
  key: string,
  count: number,
  extra: Partial<Record<'title' | 'content', string>> = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const input = {
      source: pick(SOURCES),
      sentiment: pick(SENTIMENTS),
      title: `${pick(WORDS)} ${pick(WORDS)}`,
      content: `${pick(WORDS)}${pick(WORDS)} ${pick(WORDS)}`,
      author: random() < 0.5 ? pick(WORDS) : undefined,
      email: `${pick(['ada', 'bob', 'exporter'])}@x.example`,
      ...extra,
    };
    const created = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, { apiKey: key, input });
    expect(created.body.errors).toBeUndefined();
    ids.push(created.body.data!.addFeedbackItem.id);
  }
  return ids;
}

/** What today's regex answers, read from the items themselves. */
async function oracle(orgId: string, term: string, filters: Filters): Promise<{ total: number; ids: string[] }> {
  const pattern = new RegExp(escapeRegExp(term), 'i');
  const filter: Record<string, unknown> = {
    orgId,
    $or: ['title', 'content', 'author', 'email'].map((field) => ({ [field]: pattern })),
  };
  for (const field of ['status', 'sentiment', 'source'] as const) if (filters[field]) filter[field] = filters[field];
  if (filters.publishedAfter || filters.publishedBefore) {
    filter.publishedDate = {
      ...(filters.publishedAfter ? { $gte: new Date(filters.publishedAfter) } : {}),
      ...(filters.publishedBefore ? { $lt: new Date(filters.publishedBefore) } : {}),
    };
  }
  const docs = await feedback
    .collection('feedback_items')
    .find(filter, { projection: { _id: 1 }, sort: { createdAt: -1, _id: -1 } })
    .toArray();
  return { total: docs.length, ids: docs.map((doc) => doc._id.toHexString()) };
}

async function list(key: string, variables: Record<string, unknown>): Promise<Page> {
  const response = await stack.gql<{ feedbackItems: Page }>(LIST, { k: key, ...variables });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.feedbackItems;
}

/** Every term with every filter, `skip`, and a page after a cursor, against the oracle. */
async function expectSameAnswers(key: string, orgId: string, filterSets: Filters[], terms = TERMS): Promise<void> {
  for (const term of terms) {
    for (const filters of filterSets) {
      const expected = await oracle(orgId, term, filters);
      const page = await list(key, { search: term, ...filters });
      const skip = filters.skip ?? 0;
      expect({ term, filters, total: page.total, ids: page.items.map((item) => item.id) }).toEqual({
        term,
        filters,
        total: expected.total,
        ids: expected.ids.slice(skip, skip + (filters.take ?? 50)),
      });
    }
    const first = await list(key, { search: term, take: 2 });
    if (first.nextCursor) {
      const next = await list(key, { search: term, take: 3, after: first.nextCursor });
      const expected = await oracle(orgId, term, {});
      expect({ term, total: next.total, ids: next.items.map((item) => item.id) }).toEqual({
        term,
        total: expected.total,
        ids: expected.ids.slice(2, 5),
      });
    }
  }
}

test('when a search is served by the index, then it answers exactly what the regex answers, with every filter, through removals, merges, unmerges and unindexed items', async () => {
  const { key, orgId } = await stack.createKey();
  const other = await stack.createKey();
  const ids = await addItems(key, 30);
  const mid = new Date().toISOString();
  ids.push(...(await addItems(key, 20)));
  const otherIds = await addItems(other.key, 10);
  for (const id of ids.slice(0, 20))
    expect((await stack.gql(STATUS, { k: key, id, s: pick(['read', 'archived']) })).body.errors).toBeUndefined();
  // An item merged before the indexer passes it is indexed from its tombstone: found once unmerged.
  expect((await stack.gql(MERGE, { k: key, id: ids[10], ids: [ids[11]] })).body.errors).toBeUndefined();

  expect(await indexAll(orgId)).toBe(50);
  expect(await indexAll(other.orgId)).toBe(10);
  expect(await store.state(orgId)).toMatchObject({ next: 50 });
  const filterSets: Filters[] = [
    {},
    { status: 'unread' },
    { status: 'read', sentiment: 'negative' },
    { sentiment: 'positive' },
    { source: 'email' },
    { publishedAfter: mid },
    { publishedBefore: mid, source: 'api' },
    { take: 3, skip: 2 },
    { take: 0 },
  ];
  await expectSameAnswers(key, orgId, filterSets);

  // Removed and merged items leave the answers; unmerged ones come back; new items (after the watermark) are found.
  expect((await stack.gql(UNMERGE, { k: key, id: ids[11] })).body.errors).toBeUndefined();
  for (const id of ids.slice(40, 43))
    expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id })).body.errors).toBeUndefined();
  expect((await stack.gql(MERGE, { k: key, id: ids[20], ids: [ids[21], ids[22]] })).body.errors).toBeUndefined();
  const tail = await addItems(key, 5, { title: 'export late' });
  await expectSameAnswers(key, orgId, [{}, { status: 'unread', take: 4, skip: 1 }, { publishedAfter: mid }]);
  expect((await list(key, { search: 'export late' })).items.map((item) => item.id).sort()).toEqual([...tail].sort());

  // The merged item is unmerged after the index passed it: found again, by the index.
  expect((await stack.gql(UNMERGE, { k: key, id: ids[21] })).body.errors).toBeUndefined();
  expect(await indexAll(orgId)).toBe(5);
  await expectSameAnswers(key, orgId, [{}, { sentiment: 'neutral' }, { take: 2, skip: 3 }]);

  // Organizations never see each other's items.
  const answered = new Set((await list(key, { search: 'example', take: 100 })).items.map((item) => item.id));
  expect(otherIds.filter((id) => answered.has(id))).toEqual([]);
  await expectSameAnswers(other.key, other.orgId, [{}], ['export', 'example']);
});

test('when an indexing pass is cut off after claiming its items, or its lease is lost, then every item is indexed once and found', async () => {
  const { key, orgId } = await stack.createKey();
  await addItems(key, 12);
  // A store that fails after the claim, before any posting: the pass is cut off there.
  const failing = Object.create(store) as SearchIndexStore;
  failing.addPostings = () => Promise.reject(new Error('cut off'));
  await expect(indexAll(orgId, failing)).rejects.toThrow('cut off');
  expect(await store.state(orgId)).toBeNull();
  await addItems(key, 3);
  // One instance holds the organization; another takes it only once the lease ran out.
  expect(await store.lease(orgId, 'first', 60_000)).toBe(true);
  expect(await store.lease(orgId, 'second', 60_000)).toBe(false);
  expect(await store.lease(orgId, 'second', 60_000, new Date(Date.now() + 61_000))).toBe(true);
  // The pass resumes the claimed items under their numbers, then takes the new ones.
  expect(await indexAll(orgId)).toBe(15);
  expect(await store.state(orgId)).toMatchObject({ next: 15 });
  // A pass that lost its lease midway finds its claim taken and stops: nothing is indexed twice.
  const claimed = (await store.block(orgId, 0))!;
  expect(await store.claimBlock(orgId, 0, 12, 13, claimed.ids, claimed.times)).toBe(false);
  expect(await store.advance(orgId, 12, 13, new Types.ObjectId().toHexString())).toBe(false);
  const blocks = await feedback.collection('feedback_search_blocks').find({ orgId }).toArray();
  const stored = blocks.flatMap((block) =>
    Array.from({ length: block.count as number }, (_, i) =>
      Buffer.from((block.ids as { buffer: Uint8Array }).buffer.subarray(i * 12, i * 12 + 12)).toString('hex'),
    ),
  );
  expect(new Set(stored).size).toBe(15);
  await expectSameAnswers(key, orgId, [{}, { take: 2, skip: 1 }], ['export', 'port', 'billing', 'zzz']);
});

test('when the background indexer runs, then it catches up with the organization and searches use it', async () => {
  const { key, orgId } = await stack.createKey();
  const ids = await addItems(key, 6, { content: 'billing export' });
  const indexer = startSearchIndexer(store, 100, 0, createLogger('test', 'silent'));
  try {
    await eventually(async () => (await store.state(orgId))?.next === 6, 30_000, 'the indexer took the items');
  } finally {
    await indexer.close();
  }
  const state = await store.state(orgId);
  expect(state!.watermark! >= ids[5]).toBe(true);
  expect(new Types.ObjectId(ids[5]).getTimestamp().getTime()).toBeLessThanOrEqual(Date.now());
  await expectSameAnswers(key, orgId, [{}, { status: 'unread' }], ['billing export', 'export', 'lling']);

  // An organization with removals and no new items: the indexer records them in the gone list.
  for (const id of ids.slice(0, 2))
    expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id })).body.errors).toBeUndefined();
  const recorder = startSearchIndexer(store, 100, 0, createLogger('test', 'silent'));
  try {
    await eventually(
      async () => (await store.state(orgId))?.gone.length === 2,
      30_000,
      'the indexer recorded the removals',
    );
  } finally {
    await recorder.close();
  }
  expect((await pathsOf(() => expectSameAnswers(key, orgId, [{}], ['billing export']))).matches).toBe(0);

  // The newest items merged or deleted before any pass indexed them, and no newer item: the merged one is
  // indexed from its tombstone and recorded, the deleted one never indexed; neither holds the gone list.
  const [merged, deleted] = await addItems(key, 2, { content: 'billing export' });
  expect((await stack.gql(MERGE, { k: key, id: ids[5], ids: [merged] })).body.errors).toBeUndefined();
  expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: deleted })).body.errors).toBeUndefined();
  const catcher = startSearchIndexer(store, 100, 0, createLogger('test', 'silent'));
  try {
    await eventually(
      async () => (await store.state(orgId))?.merged.length === 1,
      30_000,
      'the indexer indexed and recorded the merged item',
    );
  } finally {
    await catcher.close();
  }
  expect(await store.state(orgId)).toMatchObject({ next: 7, gone: [expect.any(Number), expect.any(Number)] });
  expect(
    (await store.removalsAfter(orgId, (await store.state(orgId))!.goneAfter, new Date(Date.now() + 60_000), 10)).length,
  ).toBe(0);
  expect((await pathsOf(() => expectSameAnswers(key, orgId, [{}], ['billing export']))).matches).toBe(0);
});

test('when a full block gets its times, then searches see them; a block claimed without times loses those a backfill gave meanwhile', async () => {
  const orgId = `blocks-${new Types.ObjectId().toHexString()}`;
  const idsOf = (count: number) =>
    Buffer.concat(Array.from({ length: count }, () => Buffer.from(new Types.ObjectId().toHexString(), 'hex')));
  const full = 4_096;
  expect(await store.claimBlock(orgId, 0, 0, full, idsOf(full), null)).toBe(true);
  const state = { next: full + 10, epoch: 'test' };
  expect((await store.allBlocks(orgId, state)).get(0)!.times).toBeNull();
  expect(await store.setTimes(orgId, 0, full, Buffer.alloc(full * 8))).toBe(true);
  // A full block is kept in memory only with its times: read again, it has them.
  expect((await store.allBlocks(orgId, state)).get(0)!.times).toHaveLength(full * 8);
  // A pass that lost its lease appends to a block without times after another instance's backfill.
  expect(await store.claimBlock(orgId, 1, 0, 10, idsOf(10), null)).toBe(true);
  expect(await store.setTimes(orgId, 1, 10, Buffer.alloc(80))).toBe(true);
  expect(await store.claimBlock(orgId, 1, 10, 12, idsOf(12), null)).toBe(true);
  expect((await store.block(orgId, 1))!.times).toBeNull();
});

/** How many searches the feedback service answered by each path so far. */
async function searchPaths(): Promise<Record<'index' | 'matches' | 'regex', number>> {
  const text = await (await fetch(`${stack.subgraphs.feedback.url}/metrics`)).text();
  const count = (path: string) =>
    Number(
      new RegExp(`^fi_feedback_searches_total\\{[^}]*path="${path}"[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1] ??
        Number.NaN,
    );
  return { index: count('index'), matches: count('matches'), regex: count('regex') };
}

/** Runs `work` and returns how many searches each path answered meanwhile. */
async function pathsOf(work: () => Promise<void>): Promise<Record<'index' | 'matches' | 'regex', number>> {
  const before = await searchPaths();
  await work();
  const after = await searchPaths();
  return {
    index: after.index - before.index,
    matches: after.matches - before.matches,
    regex: after.regex - before.regex,
  };
}

test('when a search has no other filter, then the index alone answers it, its gone items proven from the gone list once their tombstones are purged; what it cannot prove is read from the items', async () => {
  const { key, orgId } = await stack.createKey();
  const ids = await addItems(key, 24);
  expect(await indexAll(orgId)).toBe(24);
  const alone: Filters[] = [{}, { take: 3, skip: 2 }, { take: 0 }, { skip: 20 }];
  const terms = ['export', 'port', 'ölf', 'example', 'zzz'];
  // Five with `{}`, `skip`, `take: 0` and `skip` past the end each, and the cursor pages: all by the index.
  const first = await pathsOf(() => expectSameAnswers(key, orgId, alone, terms));
  expect(first.matches).toBe(0);
  expect(first.index).toBeGreaterThanOrEqual(terms.length * alone.length);

  // Removed and merged items: found among the removals not recorded yet, then in the gone list.
  for (const id of ids.slice(0, 3))
    expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id })).body.errors).toBeUndefined();
  expect((await stack.gql(MERGE, { k: key, id: ids[3], ids: [ids[4], ids[5]] })).body.errors).toBeUndefined();
  expect((await pathsOf(() => expectSameAnswers(key, orgId, alone, terms))).matches).toBe(0);
  await indexAll(orgId);
  expect(await store.state(orgId)).toMatchObject({
    gone: [expect.any(Number), expect.any(Number), expect.any(Number)],
    merged: [expect.any(Number), expect.any(Number)],
  });
  // Deletions' tombstones are purged after 30 days: the gone list still proves them.
  await feedback.collection('feedback_tombstones').deleteMany({ orgId, kind: 'deleted' });
  expect((await pathsOf(() => expectSameAnswers(key, orgId, alone, terms))).matches).toBe(0);
  // An unmerged item is live again though the gone list names it.
  expect((await stack.gql(UNMERGE, { k: key, id: ids[4] })).body.errors).toBeUndefined();
  expect((await pathsOf(() => expectSameAnswers(key, orgId, alone, terms))).matches).toBe(0);
  // Another filter needs the items' fields: the items answer it (and the index the check's first page, without it).
  expect(await pathsOf(() => expectSameAnswers(key, orgId, [{ status: 'unread' }], ['zzz']))).toEqual({
    index: 1,
    matches: 1,
    regex: 0,
  });

  // A removal whose tombstone went before the gone list recorded it cannot be proven: the items answer
  // (every item's email holds "example": the page, the first page of two and the page after its cursor).
  expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: ids[6] })).body.errors).toBeUndefined();
  await feedback.collection('feedback_tombstones').deleteOne({ _id: new Types.ObjectId(ids[6]) });
  expect(await pathsOf(() => expectSameAnswers(key, orgId, [{}], ['example']))).toEqual({
    index: 0,
    matches: 3,
    regex: 0,
  });
});

test('when an index was written before it kept times, then its searches read the matches until the times are filled in, and the index answers alike after', async () => {
  const { key, orgId } = await stack.createKey();
  await addItems(key, 10);
  expect(await indexAll(orgId)).toBe(10);
  await feedback.collection('feedback_search_blocks').updateMany({ orgId }, { $unset: { times: '' } });
  // A pass appends to the untimed block without times.
  await addItems(key, 4);
  expect(await indexAll(orgId)).toBe(4);
  expect(await pathsOf(() => expectSameAnswers(key, orgId, [{}], ['example']))).toEqual({
    index: 0,
    matches: 3,
    regex: 0,
  });
  expect(await backfillTimes(store, orgId)).toBe(1);
  expect(await backfillTimes(store, orgId)).toBe(0);
  expect(
    await pathsOf(() => expectSameAnswers(key, orgId, [{}, { take: 4, skip: 5 }], ['example', 'export'])),
  ).toMatchObject({ matches: 0 });
});

test('when an import batch is still being written while newer items are indexed, then no pass goes past its ids, and every item of it is indexed once it is written', async () => {
  const { key, orgId } = await stack.createKey();
  await addItems(key, 2);
  expect(await indexAll(orgId)).toBe(2);
  const count = 20_000;
  const importFeedback = await feedbackImporter(feedback, () => undefined);
  const at = new Date();
  const records = Array.from({ length: count }, (_, i) => ({
    source: 'api',
    title: `Zebrafish ${i}`,
    content: 'imported',
    status: 'unread' as const,
    publishedDate: at,
    createdAt: at,
  }));
  const imported = importFeedback(orgId, records);
  let since: Date | null = null;
  await eventually(
    async () => (since = (await store.openImports()).oldest.get(orgId) ?? null) !== null,
    20_000,
    'the batch recorded',
  );
  // An API item made in a later second than the batch's ids, indexed by a pass while the batch is written:
  // the pass stops before the batch, so the items it commits after the pass are not left behind.
  await eventually(() => Math.floor(Date.now() / 1000) > Math.floor(since!.getTime() / 1000), 5_000, 'the next second');
  await addItems(key, 1, { content: 'zebrafish alone' });
  await indexAll(orgId);
  expect((await store.openImports()).oldest.has(orgId)).toBe(true);
  expect(await imported).toBe(count);
  expect((await store.openImports()).oldest.has(orgId)).toBe(false);
  await indexAll(orgId);
  expect(await store.state(orgId)).toMatchObject({ next: 2 + count + 1 });
  expect(
    await pathsOf(() => expectSameAnswers(key, orgId, [{}, { take: 3, skip: 19_990 }], ['zebrafish'])),
  ).toMatchObject({ matches: 0, regex: 0 });
});

test('when more import batches are open than are read, then the oldest are read and every organization left unread is bounded by the newest one read', async () => {
  // Held intents as import batches record them, dated before anything else of this database so they are the oldest.
  const outbox = feedback.collection('webhook_outbox');
  const orgs = ['000000000000000000000a01', '000000000000000000000a02', '000000000000000000000a03'];
  const began = orgs.map((_, i) => new Date(Date.UTC(2001, 0, 1 + i)));
  // Ids, holds and insertion newest first, so that only a read in the order of their recording finds the oldest.
  const heldUntil = (i: number) => new Date(Date.now() + 3_600_000 - i * 60_000);
  const ids = orgs.map((_, i) => `test-open-import-${orgs.length - i}`);
  await outbox.insertMany(
    orgs
      .map((orgId, i) => ({
        _id: ids[i] as unknown as Types.ObjectId,
        orgId,
        itemId: 'batch',
        type: 'feedback.created',
        occurredAt: began[i],
        heldUntil: heldUntil(i),
        doneAt: null,
      }))
      .reverse(),
  );
  try {
    const cut = await store.openImports(2);
    expect([...cut.oldest]).toEqual([
      [orgs[0], began[0]],
      [orgs[1], began[1]],
    ]);
    expect(cut.unreadFrom).toEqual(began[1]);
    const whole = await store.openImports();
    expect(whole.oldest.get(orgs[2])).toEqual(began[2]);
    expect(whole.unreadFrom).toBeNull();
  } finally {
    await outbox.deleteMany({ _id: { $in: ids as unknown as Types.ObjectId[] } });
  }
});

test('when an organization has new items only behind an import batch still being written, then the background indexer takes no lease for it', async () => {
  const importing = await stack.createKey();
  const busy = await stack.createKey();
  const outbox = feedback.collection('webhook_outbox');
  const intent = `test-open-import-${importing.orgId}` as unknown as Types.ObjectId;
  // A batch recorded before the organization's item, still held by its writer.
  const heldUntil = new Date(Date.now() + 3_600_000);
  await outbox.insertOne({
    _id: intent,
    orgId: importing.orgId,
    itemId: 'batch',
    type: 'feedback.created',
    occurredAt: new Date(Date.now() - 5_000),
    heldUntil,
    doneAt: null,
  });
  try {
    await addItems(importing.key, 1);
    await addItems(busy.key, 1);
    const indexer = startSearchIndexer(store, 100, 0, createLogger('test', 'silent'));
    try {
      await eventually(
        async () => (await store.state(busy.orgId))?.next === 1,
        30_000,
        'the other organization indexed',
      );
      // A later pass: the first one, which visited both organizations, is over.
      await addItems(busy.key, 1);
      await eventually(async () => (await store.state(busy.orgId))?.next === 2, 30_000, 'a later pass');
      // A lease would have written the organization's state.
      expect(await store.state(importing.orgId)).toBeNull();
    } finally {
      await indexer.close();
    }
  } finally {
    await outbox.deleteOne({ _id: intent });
  }
});

test('when an import stored more than 1,000 items within one second, then a search right after it still reads the newest 1,000', async () => {
  const { key, orgId } = await stack.createKey();
  const second = Math.floor(Date.now() / 1_000) - 50_000;
  const createdAt = new Date(second * 1_000);
  // Ids of one second, in the order made (their counter grows), every 100th item holding "export".
  const docs = Array.from({ length: 1_500 }, (_, i) => ({
    _id: new Types.ObjectId(`${second.toString(16)}${new Types.ObjectId().toHexString().slice(8)}`),
    orgId,
    source: 'api',
    title: (i + 1) % 100 === 0 ? `Export ${i + 1}` : `Item ${i + 1}`,
    content: 'Text',
    sentiment: 'neutral',
    status: 'unread',
    publishedDate: createdAt,
    createdAt,
  }));
  await feedback.collection('feedback_items').insertMany(docs);
  await recountOrganization(feedback, orgId);

  const answer = await stack.gql<{
    feedbackItems: { total: number; items: Array<{ title: string }>; searchReach: unknown };
  }>(
    'query($k: String!) { feedbackItems(apiKey: $k, search: "export") { total items { title } searchReach { indexed newest notSearched } } }',
    { k: key },
  );

  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.feedbackItems).toMatchObject({
    total: 10,
    searchReach: { indexed: 0, newest: 1_000, notSearched: 500 },
  });
  expect(answer.body.data!.feedbackItems.items.map((item) => item.title)).toEqual(
    Array.from({ length: 10 }, (_, i) => `Export ${1_500 - 100 * i}`),
  );
});

test('when the index lags by more than 1,000 items (a large import), then a search reads the index and the newest 1,000 and says how far it reached', async () => {
  const { key, orgId } = await stack.createKey();
  const first = Math.floor(Date.now() / 1_000) - 100_000;
  let n = 0;
  /** `count` items stored one a second (ids begin with their second), every 100th holding "export"; counted. */
  const imported = async (count: number) => {
    const docs = Array.from({ length: count }, () => {
      n += 1;
      const second = first + n;
      const createdAt = new Date(second * 1_000);
      return {
        _id: new Types.ObjectId(`${second.toString(16)}${new Types.ObjectId().toHexString().slice(8)}`),
        orgId,
        source: 'api',
        title: n % 100 === 0 ? `Export ${n}` : `Item ${n}`,
        content: 'Text',
        sentiment: 'neutral',
        status: 'unread',
        publishedDate: createdAt,
        createdAt,
      };
    });
    await feedback.collection('feedback_items').insertMany(docs);
    await recountOrganization(feedback, orgId);
  };
  const search = async () => {
    const answer = await stack.gql<{
      feedbackItems: { total: number; items: Array<{ title: string }>; searchReach: unknown };
    }>(
      'query($k: String!) { feedbackItems(apiKey: $k, search: "export") { total items { title } searchReach { indexed newest notSearched } } }',
      { k: key },
    );
    expect(answer.body.errors).toBeUndefined();
    const page = answer.body.data!.feedbackItems;
    return { ...page, titles: page.items.map((item) => item.title) };
  };

  // Nothing indexed yet: items 501-1,500 are searched, items 1-500 are not.
  await imported(1_500);
  const fresh = await search();
  expect(fresh).toMatchObject({ total: 10, searchReach: { indexed: 0, newest: 1_000, notSearched: 500 } });
  expect(fresh.titles).toEqual(Array.from({ length: 10 }, (_, i) => `Export ${1_500 - 100 * i}`));

  // 1,500 indexed, 1,500 more imported: the index and items 2,001-3,000; items 1,501-2,000 are not searched.
  await indexAll(orgId);
  await imported(1_500);
  const partial = await search();
  expect(partial).toMatchObject({ total: 25, searchReach: { indexed: 1_500, newest: 1_000, notSearched: 500 } });
  expect(partial.titles.slice(9, 12)).toEqual(['Export 2100', 'Export 1500', 'Export 1400']);

  // Once the index holds every item, the answer is whole again.
  await indexAll(orgId);
  expect(await search()).toMatchObject({ total: 30, searchReach: null });
});
