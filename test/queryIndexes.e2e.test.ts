import mongoose, { Types } from 'mongoose';
import { indexOrganization, recomputeThemes, SearchIndexStore, ThemeStore } from '@fi/feedback';
import { eventually } from './helpers/processes';
import { insertAccounts, insertContacts } from './helpers/fixtures';
import { ADD_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

/**
 * Every query the repositories issue for the API's reads and writes, captured while real requests
 * run, must have an index that serves it in equality, sort, range order: its equality fields first (in
 * any order), then its sort fields in order (one direction, or all reversed), with its range fields
 * after them. A query by `_id` is served by the primary key. A new query shape without such an index
 * fails here, naming the shape.
 */

const SEARCH_COLLECTIONS = ['feedback_search_state', 'feedback_search_blocks', 'feedback_search_postings'];
const COLLECTIONS = [
  'feedback_items',
  'feedback_counts',
  'webhook_outbox',
  ...SEARCH_COLLECTIONS,
  'contacts',
  'accounts',
];
const DATABASES = {
  feedback: ownDatabaseName('indexes_feedback'),
  contacts: ownDatabaseName('indexes_contacts'),
  accounts: ownDatabaseName('indexes_accounts'),
};

interface Shape {
  collection: string;
  method: string;
  equality: string[];
  range: string[];
  sort: Array<[string, number]>;
}

const RANGE_OPERATORS = ['$gt', '$gte', '$lt', '$lte'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    !(value instanceof Types.ObjectId)
  );
}

interface Fields {
  equality: Set<string>;
  range: Set<string>;
}

const cross = (left: Fields[], right: Fields[]): Fields[] =>
  left.flatMap((a) =>
    right.map((b) => ({ equality: new Set([...a.equality, ...b.equality]), range: new Set([...a.range, ...b.range]) })),
  );

/**
 * The index bounds a filter can use, one entry per `$or` branch (the server plans each branch on its
 * own): equality fields (a value, `$in`, `$eq`), range fields (`$gt`...); a regex, `$ne` or `$exists`
 * is filtered after the index and needs none.
 */
function fieldsOf(filter: Record<string, unknown>): Fields[] {
  let result: Fields[] = [{ equality: new Set(), range: new Set() }];
  for (const [field, value] of Object.entries(filter)) {
    if (field === '$and')
      for (const part of value as Array<Record<string, unknown>>) result = cross(result, fieldsOf(part));
    else if (field === '$or') result = cross(result, (value as Array<Record<string, unknown>>).flatMap(fieldsOf));
    else if (field.startsWith('$') || value instanceof RegExp) continue;
    else if (isPlainObject(value)) {
      const operators = Object.keys(value);
      if (operators.some((op) => RANGE_OPERATORS.includes(op))) for (const fields of result) fields.range.add(field);
      else if (operators.includes('$in') || operators.includes('$eq'))
        for (const fields of result) fields.equality.add(field);
    } else for (const fields of result) fields.equality.add(field);
  }
  return result;
}

function shapesOf(
  collection: string,
  method: string,
  filter: Record<string, unknown>,
  sort: Record<string, number> = {},
): Shape[] {
  return fieldsOf(filter).map(({ equality, range }) => ({
    collection,
    method,
    equality: [...equality].sort(),
    range: [...range].filter((field) => !equality.has(field) && !(field in sort)).sort(),
    sort: Object.entries(sort).filter(([field]) => !equality.has(field)),
  }));
}

function served(shape: Shape, keys: Array<Array<[string, number]>>): boolean {
  if (shape.equality.includes('_id')) return true;
  return keys.some((index) => {
    const fields = index.map(([field]) => field);
    const p = shape.equality.length;
    if (p === 0 && shape.sort.length === 0 && shape.range.length === 0) return false;
    if (new Set(fields.slice(0, p)).size !== p || !shape.equality.every((field) => fields.slice(0, p).includes(field)))
      return false;
    const sorted = index.slice(p, p + shape.sort.length);
    if (sorted.length !== shape.sort.length) return false;
    const sameWay = shape.sort.every(([field, dir], i) => sorted[i][0] === field && sorted[i][1] === dir);
    const reversed = shape.sort.every(([field, dir], i) => sorted[i][0] === field && sorted[i][1] === -dir);
    if (!sameWay && !reversed) return false;
    return shape.range.every((field) => fields.indexOf(field) >= p);
  });
}

/** The filter and sort of one captured call (mongoose's debug hands the collection method's arguments). */
function queriesOf(collection: string, method: string, args: unknown[]): Shape[] {
  const [first, second, third] = args as [
    unknown,
    Record<string, unknown> | undefined,
    Record<string, unknown> | undefined,
  ];
  const sortOf = (options?: Record<string, unknown>) => options?.sort as Record<string, number> | undefined;
  switch (method) {
    case 'find':
    case 'findOne':
      return shapesOf(collection, method, first as Record<string, unknown>, sortOf(third) ?? sortOf(second));
    case 'countDocuments':
    case 'updateOne':
    case 'updateMany':
    case 'deleteOne':
    case 'deleteMany':
    case 'findOneAndUpdate':
      return shapesOf(collection, method, first as Record<string, unknown>);
    case 'aggregate': {
      const match = (first as Array<Record<string, unknown>>).find((stage) => stage.$match)?.$match as
        Record<string, unknown> | undefined;
      return shapesOf(collection, method, match ?? {});
    }
    case 'bulkWrite':
      return (first as Array<Record<string, { filter: Record<string, unknown> }>>).flatMap((op) =>
        shapesOf(collection, method, Object.values(op)[0].filter),
      );
    default:
      return [];
  }
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { databases: DATABASES });
});
afterAll(() => stack.close());

test('when the API lists, filters, searches, pages, links, summarises and changes feedback, then every query has an index that serves it', async () => {
  const { key, orgId } = await stack.createKey();
  await insertAccounts(stack, orgId, [{ name: 'Acme', domain: 'acme.example' }]);
  await insertContacts(stack, orgId, [
    { name: 'Ada', email: 'ada@acme.example' },
    { name: 'Bob', email: 'bob@acme.example' },
  ]);
  const calls: Array<{ collection: string; method: string; args: unknown[] }> = [];
  mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    if (COLLECTIONS.includes(collection)) calls.push({ collection, method, args });
  });
  try {
    const ids: string[] = [];
    for (const [n, email] of ['ada@acme.example', 'bob@acme.example', 'ADA@acme.example'].entries()) {
      const created = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
        apiKey: key,
        input: { source: n === 1 ? 'email' : 'api', title: `Export ${n}`, content: 'The export fails', email },
      });
      expect(created.body.errors).toBeUndefined();
      ids.push(created.body.data!.addFeedbackItem.id);
    }
    const reads: Array<[string, Record<string, unknown>]> = [
      ['query($k: String!) { feedbackItems(apiKey: $k) { total items { id } nextCursor } }', {}],
      ['query($k: String!) { feedbackItems(apiKey: $k, status: "unread") { total } }', {}],
      ['query($k: String!) { feedbackItems(apiKey: $k, sentiment: "negative") { total } }', {}],
      ['query($k: String!) { feedbackItems(apiKey: $k, source: "api") { total items { id } } }', {}],
      [
        'query($k: String!) { feedbackItems(apiKey: $k, source: "api", status: "unread", sentiment: "negative") { total } }',
        {},
      ],
      [
        'query($k: String!) { feedbackItems(apiKey: $k, publishedAfter: "2020-01-01T10:00:00Z", publishedBefore: "2099-01-01T10:00:00Z") { total items { id } } }',
        {},
      ],
      ['query($k: String!) { feedbackItems(apiKey: $k, search: "export") { total items { id } } }', {}],
      ['query($k: String!) { feedbackItems(apiKey: $k, take: 1, skip: 1) { total } }', {}],
      [
        'query($k: String!) { contactItems(apiKey: $k) { items { totalFeedbacks lastInteraction feedback(status: "unread", take: 1) { total items { id } } account { feedbackSummary { total } } } } }',
        {},
      ],
      [
        'query($k: String!) { accountItems(apiKey: $k) { items { feedbackSummary { total unread lastFeedbackAt } contacts { total } } } }',
        {},
      ],
      [
        'query($k: String!) { feedbackInsights(apiKey: $k, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z") { total topTerms { term } } }',
        {},
      ],
      [
        'query($k: String!) { feedbackInsights(apiKey: $k, from: "2026-01-01T06:00:00Z", to: "2026-12-31T06:00:00Z", source: "api") { total } }',
        {},
      ],
      [
        'query($k: String!) { feedbackInsights(apiKey: $k, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z") { previous { total } risingThemes { count } } }',
        {},
      ],
      [
        'query($k: String!) { feedbackThemes(apiKey: $k, from: "2026-01-01T06:00:00Z", to: "2026-12-31T06:00:00Z", source: "api") { total items { count } } }',
        {},
      ],
      ['query($k: String!) { feedbackThemes(apiKey: $k) { total items { count } } }', {}],
      [`query($k: String!) { feedbackItem(apiKey: $k, id: "${ids[2]}") { similar(take: 3) { score } } }`, {}],
    ];
    for (const [query] of reads) expect((await stack.gql(query, { k: key })).body.errors).toBeUndefined();
    const first = await stack.gql<{ feedbackItems: { nextCursor: string } }>(
      'query($k: String!) { feedbackItems(apiKey: $k, take: 1) { nextCursor } }',
      { k: key },
    );
    expect(
      (
        await stack.gql('query($k: String!, $a: String) { feedbackItems(apiKey: $k, take: 1, after: $a) { total } }', {
          k: key,
          a: first.body.data!.feedbackItems.nextCursor,
        })
      ).body.errors,
    ).toBeUndefined();
    expect(
      (
        await stack.gql(
          'mutation($k: String!, $id: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: "read") { id } }',
          { k: key, id: ids[0] },
        )
      ).body.errors,
    ).toBeUndefined();
    expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: ids[1] })).body.errors).toBeUndefined();
    // A theme computation and the worker's count of the days the writes marked (in this process, so that
    // its calls are captured).
    await recomputeThemes(new ThemeStore(await stack.connect('feedback')), orgId);
    // The search indexer's pass over the items (in this process, taking items up to now) and a search it serves.
    const search = new SearchIndexStore(await stack.connect('feedback'));
    expect(await search.lease(orgId, 'indexes-test', 60_000)).toBe(true);
    expect(await indexOrganization(search, orgId, { graceMs: 0 }, () => new Date(Date.now() + 2_000))).toBeGreaterThan(
      0,
    );
    await search.release(orgId, 'indexes-test');
    await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
      apiKey: key,
      input: { source: 'api', title: 'Export later', content: 'Found by regex until indexed' },
    });
    const searched = await stack.gql<{ feedbackItems: { total: number } }>(
      'query($k: String!) { feedbackItems(apiKey: $k, search: "export", status: "unread", after: null, skip: 1) { total items { id } } }',
      { k: key },
    );
    expect(searched.body.data!.feedbackItems.total).toBe(2);
    // A search the index answers alone: its gone items proven (kept counts, the tail, removals) and its page read by id.
    const alone = await stack.gql<{ feedbackItems: { total: number } }>(
      'query($k: String!) { feedbackItems(apiKey: $k, search: "export", skip: 1) { total items { id } } }',
      { k: key },
    );
    expect(alone.body.errors).toBeUndefined();
    // The relay closes the changes (its reads of the outbox and the items are captured too).
    await eventually(
      () => calls.some((call) => call.collection === 'webhook_outbox' && call.method === 'deleteOne'),
      20_000,
      'the relay closed a change',
    );
  } finally {
    mongoose.set('debug', false);
  }

  const indexes = new Map<string, Array<Array<[string, number]>>>();
  for (const [database, names] of [
    ['feedback', ['feedback_items', 'feedback_counts', 'webhook_outbox', ...SEARCH_COLLECTIONS]],
    ['contacts', ['contacts']],
    ['accounts', ['accounts']],
  ] as const) {
    const connection = await stack.connect(database);
    for (const name of names) {
      indexes.set(
        name,
        (await connection.collection(name).indexes()).map((index) =>
          Object.entries(index.key as Record<string, number>),
        ),
      );
    }
  }
  const shapes = calls.flatMap(({ collection, method, args }) => queriesOf(collection, method, args));
  // The capture saw every kind of read the API makes.
  expect(new Set(shapes.map((shape) => shape.collection))).toEqual(new Set(COLLECTIONS));
  const unserved = shapes.filter((shape) => !served(shape, indexes.get(shape.collection) ?? []));
  expect([...new Set(unserved.map((shape) => JSON.stringify(shape)))]).toEqual([]);
});

test('when a shape has no serving index, then the check says so', () => {
  const one = (collection: string, method: string, filter: Record<string, unknown>, sort?: Record<string, number>) =>
    shapesOf(collection, method, filter, sort)[0];
  const keys: Array<Array<[string, number]>> = [
    [
      ['orgId', 1],
      ['status', 1],
      ['createdAt', -1],
      ['_id', -1],
    ],
  ];
  expect(served(one('c', 'find', { orgId: 'o', status: 'read' }, { createdAt: -1, _id: -1 }), keys)).toBe(true);
  expect(served(one('c', 'find', { orgId: 'o', status: 'read' }, { createdAt: 1, _id: 1 }), keys)).toBe(true);
  expect(served(one('c', 'find', { orgId: 'o' }, { createdAt: -1, _id: -1 }), keys)).toBe(false);
  expect(served(one('c', 'find', { orgId: 'o', status: 'read', source: 'api' }, { createdAt: -1 }), keys)).toBe(false);
  expect(served(one('c', 'find', { orgId: 'o', status: 'read' }, { publishedDate: -1 }), keys)).toBe(false);
  expect(
    served(one('c', 'countDocuments', { orgId: 'o', status: 'read', publishedDate: { $gte: new Date() } }), keys),
  ).toBe(false);
  expect(served(one('c', 'find', { _id: new Types.ObjectId() }), keys)).toBe(true);
});
