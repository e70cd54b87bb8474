import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Page = {
  feedbackItems: {
    total: number;
    nextCursor: string | null;
    items: Array<{ id: string; title: string; publishedDate: string }>;
  };
};

const LIST = `query($k: String!, $skip: Int, $take: Int, $search: String, $from: DateTime, $to: DateTime, $after: String, $status: String) {
  feedbackItems(apiKey: $k, skip: $skip, take: $take, search: $search, publishedAfter: $from, publishedBefore: $to, after: $after, status: $status) {
    total nextCursor items { id title publishedDate }
  }
}`;

async function add(key: string, input: Record<string, unknown>): Promise<{ id: string; publishedDate: string }> {
  const response = await stack.gql<{ addFeedbackItem: { id: string; publishedDate: string } }>(ADD_FEEDBACK, {
    apiKey: key,
    input: { source: 'api', content: 'c', ...input },
  });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem;
}

async function list(key: string, args: Record<string, unknown>): Promise<Page['feedbackItems']> {
  const response = await stack.gql<Page>(LIST, { k: key, ...args });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.feedbackItems;
}

async function errorOf(key: string, args: Record<string, unknown>) {
  const response = await stack.gql(LIST, { k: key, ...args });
  return { status: response.status, error: response.body.errors?.[0] };
}

describe('search', () => {
  let key: string;
  beforeAll(async () => {
    ({ key } = await stack.createKey());
    await add(key, { title: 'Export is SLOW', content: 'c' });
    await add(key, { title: 't', content: 'the export button is hidden' });
    await add(key, { title: 't', content: 'c', author: 'Exporto Smith' });
    await add(key, { title: 't', content: 'c', email: 'export@example.com' });
    await add(key, { title: 'a.*b (literal)', content: 'c' });
    await add(key, { title: 'nothing here', content: 'c' });
  });

  test.each([
    ['a word in any case, over title, content, author and email', 'EXPORT', ['t', 't', 't', 'Export is SLOW']],
    ['regex metacharacters, literally', 'a.*b (', ['a.*b (literal)']],
    ['a pattern that would match anything as a regex', '.*x', []],
    ['blank text, as no filter', '   ', ['nothing here', 'a.*b (literal)', 't', 't', 't', 'Export is SLOW']],
  ])('when searching for %s, then exactly the matches come back with their total', async (_, search, titles) => {
    const page = await list(key, { search });
    expect(page.items.map((item) => item.title)).toEqual(titles);
    expect(page.total).toBe(titles.length);
  });

  test('when the search is over 200 characters, then BAD_REQUEST names the limit', async () => {
    expect((await errorOf(key, { search: 'x'.repeat(200) })).error).toBeUndefined();
    expect((await errorOf(key, { search: 'x'.repeat(201) })).error).toMatchObject({
      message: 'search must be at most 200 characters (got 201)',
      extensions: { code: 'BAD_REQUEST', argument: 'search', max: 200 },
    });
  });
});

describe('publishedAfter and publishedBefore', () => {
  test('when a range is given, then it includes its start and excludes its end', async () => {
    const { key } = await stack.createKey();
    const items: Array<{ id: string; publishedDate: string }> = [];
    for (const title of ['a', 'b', 'c']) items.push(await add(key, { title }));
    const page = await list(key, { from: items[0].publishedDate, to: items[2].publishedDate });
    const expected = items.filter(
      (item) => item.publishedDate >= items[0].publishedDate && item.publishedDate < items[2].publishedDate,
    );
    expect(page.items.map((item) => item.id).sort()).toEqual(expected.map((item) => item.id).sort());
    expect(page.items.map((item) => item.id)).toContain(items[0].id);
    expect(page.items.map((item) => item.id)).not.toContain(items[2].id);
    expect((await list(key, { from: items[2].publishedDate })).items.map((item) => item.id)).toContain(items[2].id);
  });

  test.each([
    [
      'an empty range',
      { from: '2026-01-02T00:00:00Z', to: '2026-01-02T00:00:00Z' },
      'publishedAfter must be earlier than publishedBefore',
    ],
    [
      'a reversed range',
      { from: '2026-01-03T00:00:00Z', to: '2026-01-02T00:00:00Z' },
      'publishedAfter must be earlier than publishedBefore',
    ],
    ['a malformed datetime', { from: 'yesterday' }, 'DateTime must be an ISO 8601 string'],
  ])('when given %s, then BAD_REQUEST', async (_, args, message) => {
    const { key } = await stack.createKey();
    const { error } = await errorOf(key, args);
    expect(error?.extensions?.code).toBe('BAD_REQUEST');
    expect(error?.message).toContain(message);
  });
});

describe('after (keyset paging)', () => {
  test('when paging with after while other requests add items between pages, then every earlier item comes exactly once', async () => {
    const { key } = await stack.createKey();
    const original = new Set<string>();
    for (let i = 0; i < 23; i += 1) original.add((await add(key, { title: `old ${i}` })).id);

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      // New items arrive between (and while) pages are read.
      const [page]: [Page['feedbackItems'], ...unknown[]] = await Promise.all([
        list(key, { take: 5, ...(after ? { after } : {}) }),
        add(key, { title: `new ${pages}a` }),
        add(key, { title: `new ${pages}b` }),
      ]);
      seen.push(...page.items.map((item) => item.id));
      after = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(20);
    } while (after);

    expect(new Set(seen).size).toBe(seen.length);
    for (const id of original) expect(seen).toContain(id);
  });

  test('when the last page is read, then nextCursor is null; with take 0 it is null too', async () => {
    const { key } = await stack.createKey();
    for (let i = 0; i < 3; i += 1) await add(key, { title: `i${i}` });
    const first = await list(key, { take: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const last = await list(key, { take: 2, after: first.nextCursor });
    expect(last.items).toHaveLength(1);
    expect(last.total).toBe(3);
    expect(last.nextCursor).toBeNull();
    expect((await list(key, { take: 3 })).nextCursor).toBeNull();
    expect((await list(key, { take: 0 })).nextCursor).toBeNull();
  });

  test('when after is combined with skip > 0, then BAD_REQUEST; with skip 0 it pages', async () => {
    const { key } = await stack.createKey();
    for (let i = 0; i < 3; i += 1) await add(key, { title: `i${i}` });
    const { nextCursor } = await list(key, { take: 1 });
    expect((await errorOf(key, { after: nextCursor, skip: 1 })).error).toMatchObject({
      message: 'after cannot be combined with skip: page with one or the other',
      extensions: { code: 'BAD_REQUEST', argument: 'after' },
    });
    expect((await list(key, { after: nextCursor, skip: 0 })).items).toHaveLength(2);
  });

  test('when the cursor is edited, truncated or made up, then BAD_REQUEST', async () => {
    const { key } = await stack.createKey();
    for (let i = 0; i < 2; i += 1) await add(key, { title: `i${i}` });
    const cursor = (await list(key, { take: 1 })).nextCursor as string;
    const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    for (const after of [flipped, cursor.slice(0, -1), `${cursor}A`, 'x'.repeat(cursor.length), 'eyJpZCI6IjEifQ', '']) {
      const { error } = await errorOf(key, { after });
      expect(error).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'after' } });
    }
  });
});
