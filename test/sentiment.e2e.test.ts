import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import { backfillSentiment, type ComputedSentiment, SentimentBackfillStore } from '@fi/feedback';
import { cli } from './helpers/cli';
import { startStack, type Stack } from './helpers/stack';
import { type Connection, connectMongo } from '@fi/shared/database';

const FIELDS = 'id title sentiment sentimentScore sentimentSource language';
const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { ${FIELDS} } }`;
const GET = `query($apiKey: String!, $id: String!) { feedbackItem(apiKey: $apiKey, id: $id) { ${FIELDS} } }`;
const LIST = `query($apiKey: String!, $sentiment: String) { feedbackItems(apiKey: $apiKey, sentiment: $sentiment, take: 100) { total items { ${FIELDS} } } }`;

interface Item {
  id: string;
  title: string;
  sentiment: string | null;
  sentimentScore: number | null;
  sentimentSource: string;
  language: string | null;
}

let stack: Stack;
let feedbackDb: Connection;
beforeAll(async () => {
  stack = await startStack();
  feedbackDb = await stack.connect('feedback');
});
afterAll(() => stack.close());

async function add(apiKey: string, input: Record<string, unknown>): Promise<Item> {
  const response = await stack.gql<{ addFeedbackItem: Item }>(ADD, { apiKey, input: { source: 'api', ...input } });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem;
}

async function list(apiKey: string, sentiment?: string) {
  const response = await stack.gql<{ feedbackItems: { total: number; items: Item[] } }>(LIST, { apiKey, sentiment });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.feedbackItems;
}

/** Items as an older version of the service stored them: no computed fields, some without any sentiment. */
async function insertLegacy(orgId: string, count: number, sentiment?: string): Promise<Types.ObjectId[]> {
  const now = new Date();
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: new Types.ObjectId(),
    orgId,
    source: 'legacy',
    title: i % 2 === 0 ? `Refund ${i}` : `Thanks ${i}`,
    content:
      i % 2 === 0
        ? 'You charged me twice and I am still waiting for my refund.'
        : 'Great support, the problem was fixed in an hour. Thank you!',
    ...(sentiment ? { sentiment } : {}),
    status: 'unread',
    publishedDate: now,
    createdAt: now,
  }));
  await feedbackDb.collection('feedback_items').insertMany(docs);
  return docs.map((doc) => doc._id);
}

describe('sentiment of new items', () => {
  test('when addFeedbackItem gets no sentiment, then the service computes one with its score', async () => {
    const { key } = await stack.createKey();
    const angry = await add(key, {
      title: 'Charged twice',
      content: 'You charged my card twice this month and nobody answers my emails. I want a refund.',
    });
    const happy = await add(key, { title: 'Brilliant', content: 'The new dashboard is fantastic, thank you so much!' });
    const question = await add(key, { title: 'Export', content: 'Can I export reports as XLSX?' });

    expect(angry).toMatchObject({ sentiment: 'negative', sentimentSource: 'computed' });
    expect(happy).toMatchObject({ sentiment: 'positive', sentimentSource: 'computed' });
    expect(question).toMatchObject({ sentiment: 'neutral', sentimentSource: 'computed' });
    for (const item of [angry, happy, question]) {
      expect(item.sentimentScore).toBeGreaterThanOrEqual(-1);
      expect(item.sentimentScore).toBeLessThanOrEqual(1);
    }
    expect(angry.sentimentScore!).toBeLessThan(question.sentimentScore!);
    expect(question.sentimentScore!).toBeLessThan(happy.sentimentScore!);
    // Stored, not recomputed on read: the filter finds it and a read returns the same.
    expect((await list(key, 'negative')).items.map((item) => item.id)).toEqual([angry.id]);
    expect(
      (await stack.gql<{ feedbackItem: Item }>(GET, { apiKey: key, id: angry.id })).body.data!.feedbackItem,
    ).toEqual(angry);
  });

  test('when a sentiment is provided, then it wins over the text and has no score', async () => {
    const { key } = await stack.createKey();
    const item = await add(key, {
      title: 'Terrible',
      content: 'Broken, useless, I want a refund.',
      sentiment: 'positive',
    });
    expect(item).toMatchObject({ sentiment: 'positive', sentimentScore: null, sentimentSource: 'provided' });
  });

  test('when items were stored before computed sentiment, then they read as provided', async () => {
    const { key, orgId } = await stack.createKey();
    const [without] = await insertLegacy(orgId, 1);
    const [withOne] = await insertLegacy(orgId, 1, 'neutral');
    const read = async (id: Types.ObjectId) =>
      (await stack.gql<{ feedbackItem: Item }>(GET, { apiKey: key, id: id.toHexString() })).body.data!.feedbackItem;
    expect(await read(without)).toMatchObject({ sentiment: null, sentimentScore: null, sentimentSource: 'provided' });
    expect(await read(withOne)).toMatchObject({
      sentiment: 'neutral',
      sentimentScore: null,
      sentimentSource: 'provided',
    });
  });

  test('when feedback is imported or seeded without sentiment, then it is computed as through the API', async () => {
    const { key, orgId } = await stack.createKey();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fi-sentiment-')), 'feedback.ndjson');
    writeFileSync(
      file,
      [
        {
          source: 'csv',
          title: 'Locked out',
          content: 'I cannot log in since the update and support has not replied for three days.',
        },
        { source: 'csv', title: 'Fine', content: 'Love it', sentiment: 'neutral' },
      ]
        .map((record) => JSON.stringify(record))
        .join('\n'),
    );
    expect((await cli('import', 'feedback', file, '--org', orgId)).code).toBe(0);
    const imported = (await list(key)).items;
    expect(imported.find((item) => item.title === 'Locked out')).toMatchObject({
      sentiment: 'negative',
      sentimentSource: 'computed',
    });
    expect(imported.find((item) => item.title === 'Fine')).toMatchObject({
      sentiment: 'neutral',
      sentimentSource: 'provided',
      sentimentScore: null,
    });

    const seeded = await stack.createKey();
    expect(
      (await cli('seed', '--org', seeded.orgId, '--feedback', '200', '--contacts', '20', '--accounts', '5')).code,
    ).toBe(0);
    const counts = await feedbackDb
      .collection('feedback_items')
      .aggregate<{ _id: string | null; n: number }>([
        { $match: { orgId: seeded.orgId } },
        { $group: { _id: '$sentimentSource', n: { $sum: 1 } } },
      ])
      .toArray();
    const bySource = Object.fromEntries(counts.map((row) => [row._id, row.n]));
    expect(bySource.computed).toBeGreaterThan(0);
    expect(bySource.computed + bySource.provided).toBe(200);
    expect(await feedbackDb.collection('feedback_items').countDocuments({ orgId: seeded.orgId, sentiment: null })).toBe(
      0,
    );
  });
});

describe('language of new items', () => {
  test('when feedback is written in another language, then it is read in that language or has no sentiment, never an English reading', async () => {
    const { key } = await stack.createKey();
    const german = await add(key, {
      title: 'Kündigung',
      content: 'Die App stürzt ständig ab, ich kündige mein Abo zum Monatsende.',
    });
    const russian = await add(key, {
      title: 'Сбой',
      content: 'Приложение постоянно падает после обновления, верните деньги',
    });
    const english = await add(key, { title: 'Export', content: 'The CSV export drops the last row of every report.' });
    const short = await add(key, { title: 'CSV', content: 'Export CSV' });

    expect(german).toMatchObject({ language: 'de', sentiment: 'negative', sentimentSource: 'computed' });
    expect(russian).toMatchObject({
      language: 'ru',
      sentiment: null,
      sentimentScore: null,
      sentimentSource: 'unsupported-language',
    });
    expect(english).toMatchObject({ language: 'en', sentiment: 'negative', sentimentSource: 'computed' });
    expect(short.language).toBeNull();
    expect(
      (await stack.gql<{ feedbackItem: Item }>(GET, { apiKey: key, id: russian.id })).body.data!.feedbackItem,
    ).toEqual(russian);
  });

  test('when items were stored before languages were read, then their language is read on the fly', async () => {
    const { key, orgId } = await stack.createKey();
    const [id] = await insertLegacy(orgId, 1, 'negative');
    const item = (await stack.gql<{ feedbackItem: Item }>(GET, { apiKey: key, id: id.toHexString() })).body.data!
      .feedbackItem;
    expect(item.language).toBe('en');
  });

  test('when the backfill meets a language it cannot read, then it marks the item once and does not read it again', async () => {
    const { orgId } = await stack.createKey();
    const items = feedbackDb.collection('feedback_items');
    const now = new Date();
    const { insertedId } = await items.insertOne({
      orgId,
      source: 'legacy',
      title: 'Сбой',
      content: 'Приложение постоянно падает после обновления',
      status: 'unread',
      publishedDate: now,
      createdAt: now,
    });
    const store = new SentimentBackfillStore(feedbackDb);
    expect(await backfillSentiment(store, orgId, { batchSize: 5 })).toEqual({
      total: 1,
      written: 1,
      skipped: 0,
      complete: true,
    });
    const marked = await items.findOne({ _id: insertedId });
    expect(marked).toMatchObject({ sentimentSource: 'unsupported-language', language: 'ru' });
    expect(marked).not.toHaveProperty('sentiment');
    expect(await backfillSentiment(store, orgId, { batchSize: 5 })).toEqual({
      total: 0,
      written: 0,
      skipped: 0,
      complete: true,
    });
  });
});

describe('sentiment backfill', () => {
  test('when a backfill is stopped after a batch, then running it again finishes the rest and provided values stay', async () => {
    const { orgId } = await stack.createKey();
    const without = await insertLegacy(orgId, 12);
    const provided = await insertLegacy(orgId, 3, 'positive');
    const store = new SentimentBackfillStore(feedbackDb);
    const items = feedbackDb.collection('feedback_items');

    const stop = new AbortController();
    const first = await backfillSentiment(store, orgId, {
      batchSize: 5,
      signal: stop.signal,
      onProgress: (done) => done >= 5 && stop.abort(),
    });
    expect(first).toEqual({ total: 12, written: 5, skipped: 0, complete: false });
    expect(await items.countDocuments({ orgId, sentimentSource: 'computed' })).toBe(5);

    const rerun = await cli('sentiment', 'backfill', '--org', orgId, '--batch', '4');
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout[0])).toEqual({ total: 7, written: 7, skipped: 0, complete: true });

    const docs = await items.find({ orgId }).toArray();
    for (const doc of docs.filter((d) => without.some((id) => id.equals(d._id)))) {
      expect(doc.sentimentSource).toBe('computed');
      expect(doc.sentiment).toBe(doc.title.startsWith('Refund') ? 'negative' : 'positive');
      expect(Math.abs(doc.sentimentScore)).toBeLessThanOrEqual(1);
    }
    for (const doc of docs.filter((d) => provided.some((id) => id.equals(d._id)))) {
      expect(doc.sentiment).toBe('positive');
      expect(doc).not.toHaveProperty('sentimentSource');
      expect(doc).not.toHaveProperty('sentimentScore');
    }
    // Nothing left: a third run has nothing to do.
    expect(JSON.parse((await cli('sentiment', 'backfill', '--org', orgId)).stdout[0])).toEqual({
      total: 0,
      written: 0,
      skipped: 0,
      complete: true,
    });
  });

  test('when a backfill runs longer than the database time limit, then every page still reads and the run completes', async () => {
    const { orgId } = await stack.createKey();
    await insertLegacy(orgId, 9);
    // Long enough for one page read on a busy machine, short enough that the held write outlives it.
    const limitMs = 3_000;
    const limited = await connectMongo(process.env.MONGODB_URI as string, feedbackDb.name, { maxTimeMs: limitMs });
    try {
      // The first batch's write is held past the connection's time limit: a read that stayed open from
      // the start of the run (one cursor) would be out of time when it asks for the next page.
      let held = false;
      const store = new (class extends SentimentBackfillStore {
        override async writeComputed(items: ComputedSentiment[]) {
          if (!held) {
            held = true;
            await new Promise((resolve) => setTimeout(resolve, limitMs * 1.5));
          }
          return super.writeComputed(items);
        }
      })(limited);

      expect(await backfillSentiment(store, orgId, { batchSize: 3 })).toEqual({
        total: 9,
        written: 9,
        skipped: 0,
        complete: true,
      });
      expect(await feedbackDb.collection('feedback_items').countDocuments({ orgId, sentiment: null })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  test('when an item gets a sentiment between the read and the write, then the backfill leaves it as given', async () => {
    const { orgId } = await stack.createKey();
    const [id] = await insertLegacy(orgId, 1);
    const items = feedbackDb.collection('feedback_items');
    await items.updateOne({ _id: id }, { $set: { sentiment: 'neutral' } });

    const written = await new SentimentBackfillStore(feedbackDb).writeComputed([
      { _id: id, sentiment: 'negative', sentimentScore: -0.8, language: 'en' },
    ]);
    expect(written).toBe(0);
    expect(await items.findOne({ _id: id })).toMatchObject({ sentiment: 'neutral' });
    expect(await items.findOne({ _id: id })).not.toHaveProperty('sentimentSource');
  });

  test('when the backfill is called wrongly, then exit code 2 names the problem', async () => {
    expect((await cli('sentiment', 'recompute', '--org', 'x')).stderr).toContain('backfill');
    expect((await cli('sentiment', 'backfill')).stderr).toContain('--org');
    const bad = await cli('sentiment', 'backfill', '--org', 'x', '--batch', '0');
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.stderr).toContain('--batch');
  });
});
