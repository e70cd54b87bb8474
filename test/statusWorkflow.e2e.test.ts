import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const UPDATE_ONE = `mutation($k: String!, $id: String!, $s: String!) {
  updateFeedbackItemStatus(apiKey: $k, id: $id, status: $s) { id status createdAt updatedAt }
}`;
const UPDATE_MANY = `mutation($k: String!, $ids: [String!]!, $s: String!) { updateFeedbackItemsStatus(apiKey: $k, ids: $ids, status: $s) }`;
const STATUS_OF = `query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { status createdAt updatedAt } }`;

type Item = { id: string; status: string; createdAt: string; updatedAt: string };

async function addItems(key: string, count: number): Promise<Item[]> {
  const items: Item[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await stack.gql<{ addFeedbackItem: Item }>(
      ADD_FEEDBACK.replace('publishedDate createdAt', 'publishedDate createdAt updatedAt'),
      {
        apiKey: key,
        input: { source: 'api', title: `item ${i}`, content: 'c' },
      },
    );
    expect(response.body.errors).toBeUndefined();
    items.push(response.body.data!.addFeedbackItem);
  }
  return items;
}

async function statusOf(key: string, id: string): Promise<Item> {
  const response = await stack.gql<{ feedbackItem: Item }>(STATUS_OF, { k: key, id });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.feedbackItem;
}

describe('updateFeedbackItemStatus', () => {
  test('when an item is created, then updatedAt equals createdAt; a change moves status and updatedAt together', async () => {
    const { key } = await stack.createKey();
    const [item] = await addItems(key, 1);
    expect(item.updatedAt).toBe(item.createdAt);

    const response = await stack.gql<{ updateFeedbackItemStatus: Item }>(UPDATE_ONE, {
      k: key,
      id: item.id,
      s: 'read',
    });
    expect(response.body.errors).toBeUndefined();
    const updated = response.body.data!.updateFeedbackItemStatus;
    expect(updated).toMatchObject({ id: item.id, status: 'read', createdAt: item.createdAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
    expect(await statusOf(key, item.id)).toEqual({
      status: 'read',
      createdAt: item.createdAt,
      updatedAt: updated.updatedAt,
    });
  });

  test.each([
    ['unread', 'read'],
    ['unread', 'archived'],
    ['read', 'unread'],
    ['read', 'archived'],
    ['archived', 'unread'],
    ['archived', 'read'],
  ])('when an item goes from %s to %s, then it has the new status', async (from, to) => {
    const { key } = await stack.createKey();
    const [item] = await addItems(key, 1);
    if (from !== 'unread') await stack.gql(UPDATE_ONE, { k: key, id: item.id, s: from });
    const response = await stack.gql<{ updateFeedbackItemStatus: Item }>(UPDATE_ONE, { k: key, id: item.id, s: to });
    expect(response.body.data!.updateFeedbackItemStatus.status).toBe(to);
    expect((await statusOf(key, item.id)).status).toBe(to);
  });

  test('when the status is set to the current one, then nothing changes, not even updatedAt', async () => {
    const { key } = await stack.createKey();
    const [item] = await addItems(key, 1);
    const response = await stack.gql<{ updateFeedbackItemStatus: Item }>(UPDATE_ONE, {
      k: key,
      id: item.id,
      s: 'unread',
    });
    const { id, status, createdAt, updatedAt } = item;
    expect(response.body.data!.updateFeedbackItemStatus).toEqual({ id, status, createdAt, updatedAt });
    expect(await statusOf(key, item.id)).toMatchObject({ status: 'unread', updatedAt: item.createdAt });
  });

  test('when the status is not one of the allowed values, then BAD_REQUEST lists them and nothing changes', async () => {
    const { key } = await stack.createKey();
    const [item] = await addItems(key, 1);
    const response = await stack.gql(UPDATE_ONE, { k: key, id: item.id, s: 'done' });
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'status must be one of unread, read, archived (got "done")',
      extensions: { code: 'BAD_REQUEST', argument: 'status', allowed: ['unread', 'read', 'archived'] },
    });
    expect((await statusOf(key, item.id)).status).toBe('unread');
  });

  test('when the id is unknown, malformed or another organization\'s, then FORBIDDEN "Feedback not found" and their item is untouched', async () => {
    const mine = await stack.createKey();
    const theirs = await stack.createKey();
    const [their] = await addItems(theirs.key, 1);
    for (const id of ['0123456789abcdef01234567', 'not-an-id', their.id]) {
      const response = await stack.gql(UPDATE_ONE, { k: mine.key, id, s: 'archived' });
      expect(response.body.data).toBeNull();
      expect(response.body.errors?.[0]).toMatchObject({
        message: 'Feedback not found',
        extensions: { code: 'FORBIDDEN' },
      });
    }
    expect((await statusOf(theirs.key, their.id)).status).toBe('unread');
  });

  test('when a read-only key updates an existing item, then FORBIDDEN "Not authorized to update this feedback"; an unknown id still says not found', async () => {
    const writer = await stack.createKey();
    const reader = await stack.createKey({ orgId: writer.orgId, readOnly: true });
    const [item] = await addItems(writer.key, 1);
    const refused = await stack.gql(UPDATE_ONE, { k: reader.key, id: item.id, s: 'read' });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Not authorized to update this feedback',
      extensions: { code: 'FORBIDDEN' },
    });
    const unknown = await stack.gql(UPDATE_ONE, { k: reader.key, id: '0123456789abcdef01234567', s: 'read' });
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: 'Feedback not found',
      extensions: { code: 'FORBIDDEN' },
    });
    const bulk = await stack.gql(UPDATE_MANY, { k: reader.key, ids: [item.id], s: 'read' });
    expect(bulk.body.errors?.[0]).toMatchObject({
      message: 'Not authorized to update this feedback',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await statusOf(writer.key, item.id)).status).toBe('unread');
  });

  test('when 20 requests set one item to different statuses at once, then it ends in one of them with a matching updatedAt', async () => {
    const { key } = await stack.createKey();
    const [item] = await addItems(key, 1);
    const wanted = Array.from({ length: 20 }, (_, i) => ['read', 'archived', 'unread'][i % 3]);
    const responses = await Promise.all(
      wanted.map((s) => stack.gql<{ updateFeedbackItemStatus: Item }>(UPDATE_ONE, { k: key, id: item.id, s })),
    );
    for (const [i, response] of responses.entries()) {
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data!.updateFeedbackItemStatus.status).toBe(wanted[i]);
    }
    const final = await statusOf(key, item.id);
    expect(['read', 'archived', 'unread']).toContain(final.status);
    // The stored updatedAt is the one written together with the stored status by the last writer.
    const writers = responses
      .map((r) => r.body.data!.updateFeedbackItemStatus)
      .filter((r) => r.status === final.status);
    expect(writers.map((w) => w.updatedAt)).toContain(final.updatedAt);
  });
});

describe('updateFeedbackItemsStatus', () => {
  test('when some items already have the status, then only the others change and are counted', async () => {
    const { key } = await stack.createKey();
    const items = await addItems(key, 4);
    await stack.gql(UPDATE_ONE, { k: key, id: items[0].id, s: 'archived' });
    const response = await stack.gql<{ updateFeedbackItemsStatus: number }>(UPDATE_MANY, {
      k: key,
      ids: [...items.map((item) => item.id), items[1].id],
      s: 'archived',
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.updateFeedbackItemsStatus).toBe(3);
    for (const item of items) expect((await statusOf(key, item.id)).status).toBe('archived');
    const again = await stack.gql<{ updateFeedbackItemsStatus: number }>(UPDATE_MANY, {
      k: key,
      ids: items.map((item) => item.id),
      s: 'archived',
    });
    expect(again.body.data!.updateFeedbackItemsStatus).toBe(0);
  });

  test("when any id is not the organization's, then nothing changes and the error names those ids", async () => {
    const mine = await stack.createKey();
    const theirs = await stack.createKey();
    const items = await addItems(mine.key, 2);
    const [their] = await addItems(theirs.key, 1);
    const response = await stack.gql(UPDATE_MANY, {
      k: mine.key,
      ids: [items[0].id, their.id, 'nope', items[1].id],
      s: 'read',
    });
    expect(response.body.data).toBeNull();
    expect(response.body.errors?.[0]).toMatchObject({
      message: `Feedback not found: ${their.id}, nope`,
      extensions: { code: 'FORBIDDEN', ids: [their.id, 'nope'] },
    });
    for (const item of items) expect((await statusOf(mine.key, item.id)).status).toBe('unread');
    expect((await statusOf(theirs.key, their.id)).status).toBe('unread');
  });

  test.each([
    ['no ids', 0],
    ['101 ids', 101],
  ])('when given %s, then BAD_REQUEST names the limit', async (_, count) => {
    const { key } = await stack.createKey();
    const ids = Array.from({ length: count }, (_, i) => i.toString(16).padStart(24, '0'));
    const response = await stack.gql(UPDATE_MANY, { k: key, ids, s: 'read' });
    expect(response.body.errors?.[0]).toMatchObject({
      message: `ids must hold 1 to 100 ids (got ${count})`,
      extensions: { code: 'BAD_REQUEST', argument: 'ids', max: 100 },
    });
  });

  test('when two bulk requests set overlapping items to different statuses at once, then every item ends in one of them', async () => {
    const { key } = await stack.createKey();
    const items = await addItems(key, 6);
    const ids = items.map((item) => item.id);
    const [a, b] = await Promise.all([
      stack.gql<{ updateFeedbackItemsStatus: number }>(UPDATE_MANY, { k: key, ids, s: 'read' }),
      stack.gql<{ updateFeedbackItemsStatus: number }>(UPDATE_MANY, { k: key, ids, s: 'archived' }),
    ]);
    expect(a.body.errors).toBeUndefined();
    expect(b.body.errors).toBeUndefined();
    // Every item changed at least once (from unread) and at most twice.
    const counted = a.body.data!.updateFeedbackItemsStatus + b.body.data!.updateFeedbackItemsStatus;
    expect(counted).toBeGreaterThanOrEqual(6);
    expect(counted).toBeLessThanOrEqual(12);
    for (const id of ids) expect(['read', 'archived']).toContain((await statusOf(key, id)).status);
  });
});

test('when the status filter is used after changes, then it finds the moved items', async () => {
  const { key } = await stack.createKey();
  const items = await addItems(key, 3);
  await stack.gql(UPDATE_MANY, { k: key, ids: [items[0].id, items[2].id], s: 'read' });
  const response = await stack.gql<{ feedbackItems: { total: number; items: Array<{ id: string }> } }>(
    `query($k: String!) { feedbackItems(apiKey: $k, status: "read") { total items { id } } }`,
    { k: key },
  );
  expect(response.body.data!.feedbackItems).toEqual({ total: 2, items: [{ id: items[2].id }, { id: items[0].id }] });
});
