import { insertContacts } from './helpers/fixtures';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, FEEDBACK_FIELDS } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';
import { ADD_ENDPOINT, FAST_WEBHOOKS } from './helpers/webhookQueries';
import { WebhookReceiver } from './helpers/webhookReceiver';

// A short changes-feed settle time (2 x MONGODB_MAX_TIME_MS + CHANGES_CLOCK_MARGIN_MS), so merges are listed within seconds.
const ENV = { ...FAST_WEBHOOKS, MONGODB_MAX_TIME_MS: '4000', CHANGES_CLOCK_MARGIN_MS: '500' };

let stack: Stack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startStack(ENV);
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const ITEM = `${FEEDBACK_FIELDS} updatedAt sentimentScore sentimentSource language`;
const MERGE = `mutation($k: String!, $id: String!, $ids: [String!]!) { mergeFeedbackItems(apiKey: $k, id: $id, duplicateIds: $ids) { id duplicates { id } } }`;
const UNMERGE = `mutation($k: String!, $id: String!) { unmergeFeedbackItem(apiKey: $k, id: $id) { ${ITEM} duplicateOf { id } } }`;
const GET = `query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { ${ITEM} duplicateOf { id } duplicates { id } } }`;
const LIST = `query($k: String!) { feedbackItems(apiKey: $k, take: 100) { total items { id } } }`;

type Item = Record<string, unknown> & {
  id: string;
  duplicateOf?: { id: string } | null;
  duplicates?: Array<{ id: string }>;
};

async function addItem(key: string, title: string, email: string): Promise<string> {
  const added = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
    apiKey: key,
    input: { source: 'api', title, content: `${title}: the CSV export times out`, email, metadata: { plan: 'pro' } },
  });
  expect(added.body.errors).toBeUndefined();
  return added.body.data!.addFeedbackItem.id;
}

const get = async (key: string, id: string) =>
  (await stack.gql<{ feedbackItem: Item | null }>(GET, { k: key, id })).body;
const listed = async (key: string) =>
  (await stack.gql<{ feedbackItems: { total: number; items: Array<{ id: string }> } }>(LIST, { k: key })).body.data!
    .feedbackItems;

describe('mergeFeedbackItems and unmergeFeedbackItem', () => {
  test('when duplicates are merged and one is unmerged, then lists, totals and figures follow, and the unmerged item is exactly as before', async () => {
    const { key, orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [{ name: 'Ada', email: 'ada@example.com' }]);
    const primary = await addItem(key, 'Export times out', 'grace@example.com');
    const first = await addItem(key, 'CSV export never finishes', 'ada@example.com');
    const second = await addItem(key, 'Cannot export to CSV', 'linus@example.com');
    expect(
      (
        await stack.gql(
          `mutation($k: String!, $id: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: "read") { id } }`,
          { k: key, id: first },
        )
      ).body.errors,
    ).toBeUndefined();
    const before = (await get(key, first)).data!.feedbackItem!;

    const merged = await stack.gql<{ mergeFeedbackItems: Item }>(MERGE, { k: key, id: primary, ids: [first, second] });
    expect(merged.body.errors).toBeUndefined();
    expect(merged.body.data!.mergeFeedbackItems).toEqual({ id: primary, duplicates: [{ id: first }, { id: second }] });
    expect(await listed(key)).toEqual({ total: 1, items: [{ id: primary }] });
    // The duplicate is kept whole and still read by id, pointing to the item it was merged into.
    expect((await get(key, first)).data!.feedbackItem).toEqual({
      ...before,
      duplicateOf: { id: primary },
      duplicates: [],
    });
    const ada = await stack.gql<{ contactItems: { items: Array<{ totalFeedbacks: number }> } }>(
      `query($k: String!) { contactItems(apiKey: $k) { items { totalFeedbacks } } }`,
      { k: key },
    );
    expect(ada.body.data!.contactItems.items).toEqual([{ totalFeedbacks: 0 }]);

    const unmerged = await stack.gql<{ unmergeFeedbackItem: Item }>(UNMERGE, { k: key, id: first });
    expect(unmerged.body.errors).toBeUndefined();
    expect(unmerged.body.data!.unmergeFeedbackItem).toEqual({ ...stripLinks(before), duplicateOf: null });
    expect((await get(key, first)).data!.feedbackItem).toEqual(before);
    expect((await listed(key)).total).toBe(2);
    expect((await get(key, primary)).data!.feedbackItem!.duplicates).toEqual([{ id: second }]);
    const adaAgain = await stack.gql<{ contactItems: { items: Array<{ totalFeedbacks: number }> } }>(
      `query($k: String!) { contactItems(apiKey: $k) { items { totalFeedbacks } } }`,
      { k: key },
    );
    expect(adaAgain.body.data!.contactItems.items).toEqual([{ totalFeedbacks: 1 }]);
  });

  test('when a merge is retried, then duplicates already merged into the item count as done and nothing changes twice', async () => {
    const { key } = await stack.createKey();
    const primary = await addItem(key, 'Primary', 'a@example.com');
    const duplicate = await addItem(key, 'Duplicate', 'b@example.com');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await stack.gql(MERGE, { k: key, id: primary, ids: [duplicate] })).body.errors).toBeUndefined();
    }
    expect(await listed(key)).toEqual({ total: 1, items: [{ id: primary }] });
    // Unmerging twice: the second finds the item live and returns it as it is.
    for (let attempt = 0; attempt < 2; attempt += 1)
      expect((await stack.gql(UNMERGE, { k: key, id: duplicate })).body.errors).toBeUndefined();
    expect((await listed(key)).total).toBe(2);
  });

  test.each([
    ['no duplicates', () => [], 'BAD_REQUEST'],
    ['the item itself', (ids: string[]) => [ids[0]], 'BAD_REQUEST'],
    ['an id twice', (ids: string[]) => [ids[1], ids[1]], 'BAD_REQUEST'],
    ['an unknown id beside a good one', (ids: string[]) => [ids[1], '0123456789abcdef01234567'], 'NOT_FOUND'],
  ])(
    'when duplicateIds holds %s, then the merge is refused and nothing is merged',
    async (_label, duplicates, code) => {
      const { key } = await stack.createKey();
      const ids = [await addItem(key, 'Primary', 'a@example.com'), await addItem(key, 'Other', 'b@example.com')];
      const answer = await stack.gql(MERGE, { k: key, id: ids[0], ids: duplicates(ids) });
      expect(answer.body.errors?.[0].extensions).toMatchObject({ code, argument: 'duplicateIds' });
      expect((await listed(key)).total).toBe(2);
    },
  );

  test('when the key is read-only, then FORBIDDEN for merge and unmerge, and nothing changes', async () => {
    const writer = await stack.createKey();
    const reader = await stack.createKey({ orgId: writer.orgId, readOnly: true });
    const ids = [
      await addItem(writer.key, 'Primary', 'a@example.com'),
      await addItem(writer.key, 'Duplicate', 'b@example.com'),
    ];
    const merge = await stack.gql(MERGE, { k: reader.key, id: ids[0], ids: [ids[1]] });
    expect(merge.body.errors?.[0]).toMatchObject({
      message: 'Not authorized to merge feedback',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await stack.gql(UNMERGE, { k: reader.key, id: ids[1] })).body.errors?.[0].extensions?.code).toBe(
      'FORBIDDEN',
    );
    expect((await listed(writer.key)).total).toBe(2);
  });

  test("when another organization's key names the items, then NOT_FOUND: it can neither merge them, nor read or unmerge a duplicate", async () => {
    const owner = await stack.createKey();
    const stranger = await stack.createKey();
    const ids = [
      await addItem(owner.key, 'Primary', 'a@example.com'),
      await addItem(owner.key, 'Duplicate', 'b@example.com'),
    ];
    const strangers = await addItem(stranger.key, 'Theirs', 'c@example.com');
    expect(
      (await stack.gql(MERGE, { k: stranger.key, id: ids[0], ids: [ids[1]] })).body.errors?.[0].extensions?.code,
    ).toBe('NOT_FOUND');
    expect(
      (await stack.gql(MERGE, { k: stranger.key, id: strangers, ids: [ids[1]] })).body.errors?.[0].extensions?.code,
    ).toBe('NOT_FOUND');
    expect((await stack.gql(MERGE, { k: owner.key, id: ids[0], ids: [ids[1]] })).body.errors).toBeUndefined();
    expect((await get(stranger.key, ids[1])).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await stack.gql(UNMERGE, { k: stranger.key, id: ids[1] })).body.errors?.[0].extensions?.code).toBe(
      'NOT_FOUND',
    );
    expect((await listed(stranger.key)).items).toEqual([{ id: strangers }]);
  });

  test('when a merged duplicate is removed, then it is gone for good and its primary no longer lists it', async () => {
    const { key } = await stack.createKey();
    const primary = await addItem(key, 'Primary', 'a@example.com');
    const duplicate = await addItem(key, 'Duplicate', 'b@example.com');
    await stack.gql(MERGE, { k: key, id: primary, ids: [duplicate] });
    expect(
      (
        await stack.gql(`mutation($k: String!, $id: String!) { removeFeedbackItem(apiKey: $k, id: $id) }`, {
          k: key,
          id: duplicate,
        })
      ).body.data,
    ).toEqual({ removeFeedbackItem: true });
    expect((await get(key, duplicate)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await get(key, primary)).data!.feedbackItem!.duplicates).toEqual([]);
    expect((await stack.gql(UNMERGE, { k: key, id: duplicate })).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  test('when items are merged and unmerged, then webhooks get feedback.merged and feedback.unmerged, and the changes feed lists the merge, then the item again', async () => {
    const { key } = await stack.createKey();
    const endpoint = await stack.gql(ADD_ENDPOINT, {
      k: key,
      url: receiver.url,
      events: ['feedback.merged', 'feedback.unmerged'],
    });
    expect(endpoint.body.errors).toBeUndefined();
    const primary = await addItem(key, 'Primary', 'a@example.com');
    const duplicate = await addItem(key, 'Duplicate', 'b@example.com');
    await stack.gql(MERGE, { k: key, id: primary, ids: [duplicate] });

    await eventually(
      () => receiver.ofType('feedback.merged').some((event) => event.json.data.item.id === duplicate),
      30_000,
      'the feedback.merged event',
    );
    const event = receiver.ofType('feedback.merged').find((received) => received.json.data.item.id === duplicate)!;
    expect(event.json.data).toMatchObject({ item: { id: duplicate, title: 'Duplicate' }, mergedInto: primary });

    const changes = `query($k: String!) { feedbackChanges(apiKey: $k) { items { type id item { id } } } }`;
    const entries = async () =>
      (
        await stack.gql<{
          feedbackChanges: { items: Array<{ type: string; id: string; item: { id: string } | null }> };
        }>(changes, { k: key })
      ).body.data!.feedbackChanges.items;
    await eventually(
      async () => (await entries()).some((entry) => entry.type === 'merged'),
      30_000,
      'the merge in the changes feed',
    );
    expect((await entries()).map(({ type, id, item }) => [type, id, item?.id ?? null])).toEqual([
      ['created', primary, primary],
      ['merged', duplicate, null],
    ]);

    await stack.gql(UNMERGE, { k: key, id: duplicate });
    await eventually(
      () => receiver.ofType('feedback.unmerged').some((received) => received.json.data.item.id === duplicate),
      30_000,
      'the feedback.unmerged event',
    );
    await eventually(
      async () => (await entries()).some((entry) => entry.id === duplicate && entry.type === 'updated'),
      30_000,
      'the item back in the changes feed',
    );
  });
});

/** An item as unmergeFeedbackItem selects it (without its duplicates). */
function stripLinks(item: Item): Item {
  const { duplicates: _duplicates, duplicateOf: _duplicateOf, ...rest } = item;
  return rest as Item;
}
