import { ADD_FEEDBACK, LIST_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

type Added = { addFeedbackItem: { id: string; title: string; createdAt: string } | null };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const input = (title = 'Retry me') => ({ source: 'api', title, content: 'Sent twice by a flaky network' });

async function add(apiKey: string, idempotencyKey: string, title?: string) {
  return stack.gql<Added>(
    ADD_FEEDBACK,
    { apiKey, input: input(title) },
    { headers: { 'idempotency-key': idempotencyKey } },
  );
}

async function total(apiKey: string): Promise<number> {
  return (await stack.gql<{ feedbackItems: { total: number } }>(LIST_FEEDBACK, { apiKey, take: 0 })).body.data!
    .feedbackItems.total;
}

describe('addFeedbackItem with an Idempotency-Key header', () => {
  test('when the same key and input are sent again, then the original item comes back and only one exists', async () => {
    const { key } = await stack.createKey();
    const first = await add(key, 'order-1');
    const second = await add(key, 'order-1');
    expect(second.body.data!.addFeedbackItem).toEqual(first.body.data!.addFeedbackItem);
    expect(await total(key)).toBe(1);
  });

  test('when the same key comes with a different input, then BAD_REQUEST and nothing new is stored', async () => {
    const { key } = await stack.createKey();
    await add(key, 'order-2', 'First');
    const other = await add(key, 'order-2', 'Second');
    expect(other.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(other.body.errors?.[0].message).toContain('Idempotency-Key');
    expect(await total(key)).toBe(1);
  });

  test('when 20 replays of one key race, then exactly one item is created and all get its id', async () => {
    const { key } = await stack.createKey();
    const responses = await Promise.all(Array.from({ length: 20 }, () => add(key, 'race')));
    const ids = new Set(responses.map((response) => response.body.data?.addFeedbackItem?.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f]{24}$/);
    expect(await total(key)).toBe(1);
  });

  test('when the item was removed, then a replay returns the original answer and does not bring it back', async () => {
    const { key } = await stack.createKey();
    const first = await add(key, 'then-removed');
    await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: first.body.data!.addFeedbackItem!.id });
    const replay = await add(key, 'then-removed');
    expect(replay.body.data!.addFeedbackItem!.id).toBe(first.body.data!.addFeedbackItem!.id);
    expect(await total(key)).toBe(0);
  });

  test('when the key is older than 24 hours, then a new item is created', async () => {
    const { key } = await stack.createKey();
    const first = await add(key, 'yesterday');
    const feedbackDb = await stack.connect('feedback');
    await feedbackDb
      .collection('idempotency_keys')
      .updateMany({ itemId: { $exists: true } }, { $set: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    const later = await add(key, 'yesterday');
    expect(later.body.data!.addFeedbackItem!.id).not.toBe(first.body.data!.addFeedbackItem!.id);
    expect(await total(key)).toBe(2);
  });

  test('when two organizations use the same key, then each gets its own item', async () => {
    const a = await stack.createKey();
    const b = await stack.createKey();
    const fromA = await add(a.key, 'shared-key');
    const fromB = await add(b.key, 'shared-key', 'Other input is fine');
    expect(fromB.body.errors).toBeUndefined();
    expect(fromB.body.data!.addFeedbackItem!.id).not.toBe(fromA.body.data!.addFeedbackItem!.id);
  });

  test('when the key is malformed, then BAD_REQUEST and nothing is stored', async () => {
    const { key } = await stack.createKey();
    const response = await add(key, 'x'.repeat(300));
    expect(response.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(await total(key)).toBe(0);
  });
});
