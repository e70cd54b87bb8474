import { startStack, type Stack } from './helpers/stack';
import { ADD_FEEDBACK, GET_FEEDBACK, LIST_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';

interface Item {
  id: string;
  status: string;
  title: string;
  sentiment: string | null;
  source: string;
  createdAt: string;
  publishedDate: string;
  metadata: unknown;
  email: string | null;
}
type List = { feedbackItems: { total: number; items: Item[] } };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const input = (overrides: Record<string, unknown> = {}) => ({
  source: 'api',
  title: 'Export is slow',
  content: 'Exporting 10k rows takes minutes.',
  author: 'Ada Lovelace',
  email: 'ada@example.com',
  sentiment: 'negative',
  metadata: { plan: 'pro', tags: ['export'], nested: { a: 1 } },
  ...overrides,
});

async function add(apiKey: string, overrides: Record<string, unknown> = {}): Promise<Item> {
  const response = await stack.gql<{ addFeedbackItem: Item }>(ADD_FEEDBACK, { apiKey, input: input(overrides) });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem;
}

function firstError(response: { body: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } }) {
  expect(response.body.errors).toHaveLength(1);
  return response.body.errors![0];
}

describe('addFeedbackItem', () => {
  test('when the input is valid, then the item is created unread with its fields and can be read back', async () => {
    const { key } = await stack.createKey();
    const before = Date.now();
    const item = await add(key);

    expect(item).toMatchObject({
      source: 'api',
      title: 'Export is slow',
      status: 'unread',
      sentiment: 'negative',
      email: 'ada@example.com',
      metadata: { plan: 'pro', tags: ['export'], nested: { a: 1 } },
    });
    expect(item.id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Date(item.createdAt).toISOString()).toBe(item.createdAt);
    expect(Date.parse(item.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(item.publishedDate).toBe(item.createdAt);

    const read = await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: key, id: item.id });
    expect(read.body.data!.feedbackItem).toEqual(item);
  });

  test.each([
    ['a blank title', { title: '   ' }, 'title'],
    ['a blank source', { source: '' }, 'source'],
    ['a blank content', { content: '\n' }, 'content'],
    ['an invalid email', { email: 'not-an-email' }, 'email'],
    ['an unknown sentiment', { sentiment: 'angry' }, 'sentiment'],
    ['metadata that is not an object', { metadata: [1, 2] }, 'metadata'],
    ['metadata with an operator key', { metadata: { $where: 'x' } }, 'metadata'],
    ['a title over the limit', { title: 'x'.repeat(501) }, 'title'],
  ])('when the input has %s, then BAD_REQUEST names the field and nothing is stored', async (_, overrides, field) => {
    const { key } = await stack.createKey();
    const response = await stack.gql(ADD_FEEDBACK, { apiKey: key, input: input(overrides) });

    const error = firstError(response);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(error.message).toContain(field);
    const list = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key });
    expect(list.body.data!.feedbackItems.total).toBe(0);
  });

  const deep = (levels: number): unknown => (levels === 0 ? 'leaf' : { next: deep(levels - 1) });
  test.each([
    ['source', { source: 's'.repeat(101) }, 100],
    ['title', { title: 't'.repeat(501) }, 500],
    ['author', { author: 'a'.repeat(201) }, 200],
    ['email', { email: `${'e'.repeat(250)}@example.com` }, 254],
    ['content', { content: 'c'.repeat(65_537) }, 65_536],
    ['metadata', { metadata: { blob: 'm'.repeat(17_000) } }, 16_384],
    ['metadata', { metadata: deep(6) }, 5],
    ['metadata', { metadata: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])) }, 200],
  ])(
    'when %s is over its limit, then BAD_REQUEST names the field and the limit, and nothing is stored',
    async (field, overrides, max) => {
      const { key } = await stack.createKey();
      const response = await stack.gql(ADD_FEEDBACK, { apiKey: key, input: input(overrides) });

      const error = firstError(response);
      expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: field, max });
      expect(error.message).toMatch(new RegExp(`^${field} must .*${max}`));
      const list = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, take: 0 });
      expect(list.body.data!.feedbackItems.total).toBe(0);
    },
  );

  test('when a required input field is missing, then BAD_REQUEST', async () => {
    const { key } = await stack.createKey();
    const response = await stack.gql(ADD_FEEDBACK, { apiKey: key, input: { source: 'api', title: 'x' } });
    expect(firstError(response).extensions?.code).toBe('BAD_REQUEST');
  });

  test('when a read-only key creates, then FORBIDDEN and nothing is stored', async () => {
    const writer = await stack.createKey();
    const reader = await stack.createKey({ orgId: writer.orgId, readOnly: true });
    const response = await stack.gql(ADD_FEEDBACK, { apiKey: reader.key, input: input() });

    expect(firstError(response).extensions?.code).toBe('FORBIDDEN');
    const list = await stack.gql<List>(LIST_FEEDBACK, { apiKey: writer.key });
    expect(list.body.data!.feedbackItems.total).toBe(0);
  });

  test('when 200 items are added concurrently, then all are stored with unique ids and total is exact', async () => {
    const { key } = await stack.createKey();
    const items = await Promise.all(Array.from({ length: 200 }, (_, i) => add(key, { title: `Concurrent ${i}` })));

    expect(new Set(items.map((item) => item.id)).size).toBe(200);
    const list = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, take: 0 });
    expect(list.body.data!.feedbackItems.total).toBe(200);
  });
});

describe('feedbackItems', () => {
  let key: string;
  beforeAll(async () => {
    ({ key } = await stack.createKey());
    const combos = [
      ['api', 'positive'],
      ['api', 'negative'],
      ['webhook', 'negative'],
      ['webhook', 'neutral'],
      ['custom', 'negative'],
    ];
    for (const [i, [source, sentiment]] of combos.entries()) await add(key, { source, sentiment, title: `Item ${i}` });
  });

  test('when filters are combined, then items match all of them and total counts the matches', async () => {
    const response = await stack.gql<List>(LIST_FEEDBACK, {
      apiKey: key,
      source: 'webhook',
      sentiment: 'negative',
      status: 'unread',
    });
    const { total, items } = response.body.data!.feedbackItems;
    expect(total).toBe(1);
    expect(items.map((item) => [item.source, item.sentiment])).toEqual([['webhook', 'negative']]);

    const negatives = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, sentiment: 'negative' });
    expect(negatives.body.data!.feedbackItems.total).toBe(3);
    const read = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, status: 'read' });
    expect(read.body.data!.feedbackItems.total).toBe(0);
  });

  test('when no paging is given, then the list is newest first', async () => {
    const response = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key });
    const titles = response.body.data!.feedbackItems.items.map((item) => item.title);
    expect(titles).toEqual(['Item 4', 'Item 3', 'Item 2', 'Item 1', 'Item 0']);
  });

  test('when paging with skip and take, then every item appears exactly once and total is the full count', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const response = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, skip: (page - 1) * 2, take: 2 });
      expect(response.body.data!.feedbackItems.total).toBe(5);
      seen.push(...response.body.data!.feedbackItems.items.map((item) => item.title));
    }
    expect(seen).toEqual(['Item 4', 'Item 3', 'Item 2', 'Item 1', 'Item 0']);
  });

  test('when take is 0, then the page is empty and total is still counted', async () => {
    const response = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, take: 0 });
    expect(response.body.data!.feedbackItems).toEqual({ total: 5, items: [] });
  });

  test.each([
    [{ take: 101 }, 'take', '100'],
    [{ take: -1 }, 'take', '100'],
    [{ skip: -5 }, 'skip', '0'],
    [{ status: 'deleted' }, 'status', 'unread'],
    [{ sentiment: 'happy' }, 'sentiment', 'positive'],
  ])('when the arguments are %j, then BAD_REQUEST names the argument and its limit', async (args, argument, limit) => {
    const response = await stack.gql(LIST_FEEDBACK, { apiKey: key, ...args });
    const error = firstError(response);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(error.message).toContain(argument);
    expect(error.message).toContain(limit);
    expect(response.body.data).toBeNull();
  });

  test('when take is 100, then it is accepted', async () => {
    const response = await stack.gql<List>(LIST_FEEDBACK, { apiKey: key, take: 100 });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.feedbackItems.items).toHaveLength(5);
  });
});

describe('feedbackItem', () => {
  test.each([
    ['an unknown id', () => '0123456789abcdef01234567'],
    ['a malformed id', () => 'not-an-id'],
  ])('when asked for %s, then data is null with NOT_FOUND', async (_, id) => {
    const { key } = await stack.createKey();
    const response = await stack.gql(GET_FEEDBACK, { apiKey: key, id: id() });
    expect(response.body.data).toEqual({ feedbackItem: null });
    expect(firstError(response).extensions?.code).toBe('NOT_FOUND');
  });

  test("when asked for another organization's item, then NOT_FOUND and none of its data", async () => {
    const owner = await stack.createKey();
    const stranger = await stack.createKey();
    const item = await add(owner.key);
    const response = await stack.gql(GET_FEEDBACK, { apiKey: stranger.key, id: item.id });
    expect(response.body.data).toEqual({ feedbackItem: null });
    expect(firstError(response).extensions?.code).toBe('NOT_FOUND');
    expect(JSON.stringify(response.body)).not.toContain('Export is slow');
  });
});

describe('removeFeedbackItem', () => {
  test('when the item exists, then it is removed for good and a second removal is "Feedback not found"', async () => {
    const { key } = await stack.createKey();
    const item = await add(key);

    const removed = await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: item.id });
    expect(removed.body).toEqual({ data: { removeFeedbackItem: true }, extensions: expect.anything() });
    const read = await stack.gql(GET_FEEDBACK, { apiKey: key, id: item.id });
    expect(firstError(read).extensions?.code).toBe('NOT_FOUND');

    const again = await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: item.id });
    expect(firstError(again)).toMatchObject({ message: 'Feedback not found', extensions: { code: 'FORBIDDEN' } });
    expect(again.body.data).toBeNull();
  });

  test.each([['0123456789abcdef01234567'], ['malformed-id']])(
    'when the id %s does not exist, then FORBIDDEN "Feedback not found"',
    async (id) => {
      const { key } = await stack.createKey();
      const response = await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id });
      expect(firstError(response)).toMatchObject({ message: 'Feedback not found', extensions: { code: 'FORBIDDEN' } });
    },
  );

  test('when the item is another organization\'s, then "Feedback not found" and the item is untouched', async () => {
    const owner = await stack.createKey();
    const stranger = await stack.createKey();
    const item = await add(owner.key);

    const response = await stack.gql(REMOVE_FEEDBACK, { apiKey: stranger.key, id: item.id });
    expect(firstError(response)).toMatchObject({ message: 'Feedback not found', extensions: { code: 'FORBIDDEN' } });
    const read = await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: owner.key, id: item.id });
    expect(read.body.data!.feedbackItem.id).toBe(item.id);
  });

  test('when the key is read-only, then "Not authorized to delete this feedback" and the item stays', async () => {
    const writer = await stack.createKey();
    const reader = await stack.createKey({ orgId: writer.orgId, readOnly: true });
    const item = await add(writer.key);

    const response = await stack.gql(REMOVE_FEEDBACK, { apiKey: reader.key, id: item.id });
    expect(firstError(response)).toMatchObject({
      message: 'Not authorized to delete this feedback',
      extensions: { code: 'FORBIDDEN' },
    });
    const read = await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: writer.key, id: item.id });
    expect(read.body.data!.feedbackItem.id).toBe(item.id);
  });

  test('when the key is invalid, then UNAUTHENTICATED "Invalid API key"', async () => {
    const response = await stack.gql(REMOVE_FEEDBACK, { apiKey: 'fik_not-a-real-key', id: '0123456789abcdef01234567' });
    expect(firstError(response)).toMatchObject({ message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
  });
});
