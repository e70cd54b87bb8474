import type { GraphQLError } from 'graphql';
import {
  addFeedback,
  addFeedbackBatch,
  changeStatus,
  changeStatuses,
  findFeedback,
  importFeedback,
  itemOf,
  listFeedback,
  mergeFeedback,
  removeFeedback,
  unmergeFeedback,
  type FeedbackItem,
  type FeedbackRecord,
  type SearchAnswers,
} from '../src/core';
import { MemoryExternalIds, MemoryIdempotency, MemoryItems, MemoryTombstones, RecordingEvents } from './inMemoryPorts';

/**
 * The core's use cases over its ports in memory: what each rule records on the change stream, in which
 * order, and what it refuses, without a database.
 */

const ORG = 'org-a';
const OTHER = 'org-b';
const writer = { orgId: ORG, readOnly: false };
const reader = { orgId: ORG, readOnly: true };

async function rejected(run: () => Promise<unknown>): Promise<GraphQLError> {
  try {
    await run();
  } catch (error) {
    return error as GraphQLError;
  }
  throw new Error('expected a rejection');
}

let hex = 0;
const newId = () => (0xb00000 + (hex += 1)).toString(16).padStart(24, '0');

const record = (overrides: Partial<FeedbackRecord> = {}): FeedbackRecord => ({
  source: 'api',
  title: 'Export is slow',
  content: 'It takes minutes.',
  email: 'ada@example.com',
  sentiment: 'negative',
  status: 'unread',
  publishedDate: new Date('2026-03-01T10:00:00Z'),
  createdAt: new Date('2026-03-01T10:00:00Z'),
  ...overrides,
});

function setUp() {
  const items = new MemoryItems();
  const tombstones = new MemoryTombstones();
  const idempotency = new MemoryIdempotency();
  const externalIds = new MemoryExternalIds();
  const events = new RecordingEvents();
  const store = (orgId = ORG, overrides: Partial<FeedbackRecord> = {}): FeedbackItem => {
    const id = newId();
    const item = itemOf(id, orgId, record(overrides));
    items.stored.set(id, { item, changeIds: [`evt_${id}_created`] });
    return item;
  };
  return { items, tombstones, idempotency, externalIds, events, store };
}

/** What a change does to the kept counts, as `cell: status:sentiment n` lines. */
const deltaLines = (change: { delta: Array<{ cell: { scope: string; key: string }; inc: Record<string, number> }> }) =>
  change.delta.flatMap(({ cell, inc }) =>
    Object.entries(inc).map(([path, n]) => `${cell.scope}:${cell.key} ${path} ${n}`),
  );

describe('adding an item', () => {
  test('when an item is added, then its change is recorded before it is written, named in its write, and counted once written', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const item = await addFeedback(
      { items, idempotency, externalIds, events },
      ORG,
      { source: 'api', title: 'Hi', content: 'Great app!' },
      undefined,
    );
    expect(item).toMatchObject({ orgId: ORG, status: 'unread', sentimentSource: 'computed' });
    expect(item.publishedDate).toEqual(item.createdAt);
    const id = `evt_${item.id}_created`;
    expect(events.log).toEqual([
      ['record', id],
      ['written', id],
    ]);
    expect(items.stored.get(item.id)!.changeIds).toEqual([id]);
    expect(events.recorded[0]).toMatchObject({ type: 'feedback.created', orgId: ORG, itemId: item.id });
    expect(deltaLines(events.recorded[0])).toContain(`source:api unread:${item.sentiment ?? 'none'} 1`);
  });

  test('when a request is replayed with its idempotency key, then the first item answers and nothing more is recorded; another input under the key is refused', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const input = { source: 'api', title: 'Once', content: 'Only once.' };
    const first = await addFeedback({ items, idempotency, externalIds, events }, ORG, input, 'key-1');
    const again = await addFeedback({ items, idempotency, externalIds, events }, ORG, input, 'key-1');
    expect(again).toEqual(first);
    expect(items.stored.size).toBe(1);
    expect(events.counted).toHaveLength(1);
    const error = await rejected(() =>
      addFeedback({ items, idempotency, externalIds, events }, ORG, { ...input, title: 'Other' }, 'key-1'),
    );
    expect(error.extensions.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/already used with a different input/);
  });

  test('when an item with an external id is added again, then the first item answers whatever the input, per organization and source', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const deps = { items, idempotency, externalIds, events };
    const input = {
      source: 'zendesk',
      title: 'Ticket 7',
      content: 'Export fails.',
      externalId: '7',
      publishedDate: '2026-10-01T08:00:00.000Z',
    };
    const first = await addFeedback(deps, ORG, input, undefined);
    expect(first).toMatchObject({ externalId: '7', publishedDate: new Date('2026-10-01T08:00:00.000Z') });
    const again = await addFeedback(deps, ORG, { ...input, title: 'Ticket 7 (edited)' }, undefined);
    expect(again).toEqual(first);
    expect(events.counted).toHaveLength(1);
    const otherSource = await addFeedback(deps, ORG, { ...input, source: 'intercom' }, undefined);
    const otherOrg = await addFeedback(deps, 'org-other', input, undefined);
    expect(new Set([first.id, otherSource.id, otherOrg.id]).size).toBe(3);
    expect(items.stored.size).toBe(3);
  });

  test('when the input breaks a rule, then BAD_REQUEST names the field and nothing is recorded', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const error = await rejected(() =>
      addFeedback(
        { items, idempotency, externalIds, events },
        ORG,
        { source: 'api', title: ' ', content: 'x' },
        undefined,
      ),
    );
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'title' });
    expect(events.log).toEqual([]);
  });
});

describe('adding a batch', () => {
  const ticket = (n: number, overrides: Record<string, unknown> = {}) => ({
    source: 'zendesk',
    title: `Ticket ${n}`,
    content: 'The export fails.',
    email: 'ada@example.com',
    externalId: String(n),
    ...overrides,
  });

  test('when a batch is added, then each new item has its own created event named in its write, and their counts go in one change written after the events were recorded', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const outcomes = await addFeedbackBatch({ items, idempotency, externalIds, events }, ORG, [ticket(1), ticket(2)]);
    const ids = outcomes.map((outcome) => ('item' in outcome ? outcome.item.id : null));
    expect(ids.every((id) => id !== null && items.stored.has(id))).toBe(true);
    const [created1, created2] = ids.map((id) => `evt_${id}_created`);
    expect(items.stored.get(ids[0]!)!.changeIds).toEqual([created1]);
    const counted = events.recorded.find((change) => change.type === 'feedback.imported')!;
    expect(counted).toMatchObject({ orgId: ORG, itemIds: ids, itemId: ids[1] });
    expect(deltaLines(counted)).toContain('source:zendesk unread:negative 2');
    // The created events carry no counts (the batch's change does), and are recorded before the write.
    expect(
      events.recorded.filter((change) => change.type === 'feedback.created').map((change) => change.delta),
    ).toEqual([[], []]);
    expect(events.log.slice(0, 3).map(([step]) => step)).toEqual(['record', 'record', 'record']);
    expect(
      events.log
        .slice(3)
        .map(([step, id]) => `${step} ${id}`)
        .sort(),
    ).toEqual([`written ${counted.id}`, `written ${created1}`, `written ${created2}`].sort());
  });

  test('when inputs break a rule, repeat an external id or were added before, then each answers alone: refused with its reason, or the item first made', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const deps = { items, idempotency, externalIds, events };
    const [earlier] = await addFeedbackBatch(deps, ORG, [ticket(1)]);
    const outcomes = await addFeedbackBatch(deps, ORG, [
      ticket(1, { title: 'Ticket 1 again' }),
      ticket(2, { title: ' ' }),
      ticket(3),
      ticket(3, { title: 'Ticket 3 again' }),
    ]);
    expect(outcomes[0]).toEqual(earlier);
    expect(outcomes[1]).toEqual({ refused: expect.stringMatching(/title/) });
    expect(outcomes[3]).toEqual(outcomes[2]);
    expect(items.stored.size).toBe(2);
    const counted = events.recorded.filter((change) => change.type === 'feedback.imported');
    expect(counted.map((change) => change.itemIds)).toEqual([
      ['item' in earlier ? earlier.item.id : ''],
      ['item' in outcomes[2] ? outcomes[2].item.id : ''],
    ]);
  });

  test('when an external id was claimed by an add that died before its item, then the batch finishes that add under the claimed id', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const claim = await externalIds.claim(ORG, 'zendesk', '9');
    const [outcome] = await addFeedbackBatch({ items, idempotency, externalIds, events }, ORG, [ticket(9)]);
    expect(outcome).toEqual({ item: expect.objectContaining({ id: claim.itemId, externalId: '9' }) });
    expect(events.recorded.map((change) => change.type)).toEqual(['feedback.created']);
  });

  test('when another add of an external id writes its item first, then the batch answers that item and counts only what it wrote', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const insertEach = items.insertEach.bind(items);
    // A redelivery of the first ticket, worked on at the same moment, writes its item just before the batch.
    items.insertEach = async (orgId, ids, records, changeIds) => {
      await items.createOnce(orgId, ids[0], records[0], [`evt_${ids[0]}_created`]);
      return insertEach(orgId, ids, records, changeIds);
    };
    const outcomes = await addFeedbackBatch({ items, idempotency, externalIds, events }, ORG, [ticket(1), ticket(2)]);
    expect(outcomes.every((outcome) => 'item' in outcome)).toBe(true);
    expect(items.stored.size).toBe(2);
    const counted = events.counted.find((change) => change.type === 'feedback.imported')!;
    expect(deltaLines(counted)).toContain('source:zendesk unread:negative 1');
    expect(deltaLines(counted)).not.toContain('source:zendesk unread:negative 2');
  });

  test('when a batch has more than 100 inputs, then BAD_REQUEST names the argument and nothing is recorded', async () => {
    const { items, idempotency, externalIds, events } = setUp();
    const inputs = Array.from({ length: 101 }, (_, n) => ticket(n));
    const error = await rejected(() => addFeedbackBatch({ items, idempotency, externalIds, events }, ORG, inputs));
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'inputs' });
    expect(events.log).toEqual([]);
  });
});

describe('changing a status', () => {
  test('when an item moves to another status, then its event carries the previous status and its delta moves one count', async () => {
    const { items, events, store } = setUp();
    const item = store();
    const change = await changeStatus({ items, events }, writer, item.id, 'archived');
    expect(change).toMatchObject({
      changed: true,
      previousStatus: 'unread',
      item: { id: item.id, status: 'archived' },
    });
    const recorded = events.recorded[0];
    expect(recorded.type).toBe('feedback.status_changed');
    expect(recorded.data).toMatchObject({ item: { status: 'archived' }, previous: { status: 'unread' } });
    expect(deltaLines(recorded)).toEqual(
      expect.arrayContaining(['source:api unread:negative -1', 'source:api archived:negative 1']),
    );
    expect(items.stored.get(item.id)!.changeIds).toContain(recorded.id);
    expect(events.log.map(([step]) => step)).toEqual(['record', 'written']);
  });

  test('when the item already has the status, then nothing is recorded and nothing changes', async () => {
    const { items, events, store } = setUp();
    const item = store();
    expect(await changeStatus({ items, events }, writer, item.id, 'unread')).toMatchObject({ changed: false });
    expect(events.log).toEqual([]);
  });

  test("when the item is unknown or another organization's, then FORBIDDEN 'Feedback not found', for a read-only key too; a read-only key is refused once it exists", async () => {
    const { items, events, store } = setUp();
    const theirs = store(OTHER);
    for (const [caller, id] of [
      [writer, theirs.id],
      [reader, theirs.id],
      [writer, 'not-an-id'],
    ] as const) {
      const error = await rejected(() => changeStatus({ items, events }, caller, id, 'read'));
      expect([error.extensions.code, error.message]).toEqual(['FORBIDDEN', 'Feedback not found']);
    }
    const mine = store();
    const refused = await rejected(() => changeStatus({ items, events }, reader, mine.id, 'read'));
    expect([refused.extensions.code, refused.message]).toEqual(['FORBIDDEN', 'Not authorized to update this feedback']);
    expect(events.log).toEqual([]);
  });

  test('when another writer changes the item between the read and the write, then the item is read again and its event names the status it really had', async () => {
    const { items, events, store } = setUp();
    const item = store();
    items.interfere = (id) => {
      items.interfere = null;
      items.stored.get(id)!.item.status = 'read';
    };
    const change = await changeStatus({ items, events }, writer, item.id, 'archived');
    expect(change).toMatchObject({ changed: true, previousStatus: 'read' });
    // The first intent was recorded and never written (the relay drops it); only the second was counted.
    expect(events.recorded).toHaveLength(2);
    expect(events.counted).toHaveLength(1);
    expect(events.counted[0].data?.previous).toMatchObject({ status: 'read' });
  });

  test('when other writers win every round, then the change gives up with SERVICE_UNAVAILABLE rather than loop', async () => {
    const { items, events, store } = setUp();
    const item = store();
    items.interfere = (id) => {
      const stored = items.stored.get(id)!;
      stored.item.status = stored.item.status === 'unread' ? 'read' : 'unread';
    };
    const error = await rejected(() => changeStatus({ items, events }, writer, item.id, 'archived'));
    expect(error.extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(events.counted).toEqual([]);
  });

  test("when many items change at once, then an id that is not the organization's stops them all, and the count is of the items that changed", async () => {
    const { items, events, store } = setUp();
    const [a, b, c] = [store(), store(), store()];
    items.stored.get(c.id)!.item.status = 'read';
    const error = await rejected(() => changeStatuses({ items, events }, writer, [a.id, 'bad-id'], 'read'));
    expect(error.extensions).toMatchObject({ code: 'FORBIDDEN', ids: ['bad-id'] });
    expect(events.log).toEqual([]);
    const changed = await changeStatuses({ items, events }, writer, [a.id, b.id, c.id, a.id.toUpperCase()], 'read');
    expect(changed.map((change) => change.item.id).sort()).toEqual([a.id, b.id].sort());
    const tooMany = await rejected(() =>
      changeStatuses({ items, events }, writer, Array.from({ length: 101 }, newId), 'read'),
    );
    expect(tooMany.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'ids', max: 100 });
  });
});

describe('removing an item', () => {
  test('when an item is removed, then the changes its document proves are kept as applied first, its tombstone is written and its event uncounts it', async () => {
    const { items, events, tombstones, store } = setUp();
    const item = store();
    expect(await removeFeedback({ items, events, tombstones }, ORG, item.id)).toBe(true);
    expect(events.log).toEqual([
      ['markApplied', `evt_${item.id}_created`],
      ['record', `evt_${item.id}_deleted`],
      ['written', `evt_${item.id}_deleted`],
    ]);
    expect(items.stored.has(item.id)).toBe(false);
    expect(tombstones.removed.get(item.id)).toMatchObject({ title: item.title, orgId: ORG });
    expect(deltaLines(events.counted[0])).toContain('source:api unread:negative -1');
  });

  test("when the item is unknown or another organization's, then nothing is removed and nothing recorded", async () => {
    const { items, events, tombstones, store } = setUp();
    const theirs = store(OTHER);
    expect(await removeFeedback({ items, events, tombstones }, ORG, theirs.id)).toBe(false);
    expect(await removeFeedback({ items, events, tombstones }, ORG, newId())).toBe(false);
    expect(items.stored.has(theirs.id)).toBe(true);
    expect(events.log).toEqual([]);
  });

  test('when a change names the item between the read and the removal, then the removal reads it again and the later change keeps its proof', async () => {
    const { items, events, tombstones, store } = setUp();
    const item = store();
    items.interfere = (id) => {
      items.interfere = null;
      items.stored.get(id)!.changeIds!.push('evt_concurrent');
    };
    expect(await removeFeedback({ items, events, tombstones }, ORG, item.id)).toBe(true);
    expect(events.applied).toEqual([`evt_${item.id}_created`, `evt_${item.id}_created`, 'evt_concurrent']);
  });
});

describe('merging duplicates', () => {
  test('when duplicates are merged, then each leaves the items as a merged tombstone with its own event and uncounted; an unmerge puts it back counted', async () => {
    const { items, events, tombstones, store } = setUp();
    const [kept, duplicate] = [store(), store()];
    expect(await mergeFeedback({ items, events, tombstones }, ORG, kept.id, [duplicate.id])).toMatchObject({
      id: kept.id,
    });
    expect(items.stored.has(duplicate.id)).toBe(false);
    expect(await tombstones.findMerged(ORG, duplicate.id)).toMatchObject({ duplicateOf: kept.id });
    expect(events.counted[0]).toMatchObject({ type: 'feedback.merged', data: { mergedInto: kept.id } });
    expect(deltaLines(events.counted[0])).toContain('source:api unread:negative -1');
    expect(await findFeedback({ items, tombstones }, ORG, duplicate.id)).toMatchObject({ duplicateOf: kept.id });

    expect(await unmergeFeedback({ items, events, tombstones }, ORG, duplicate.id)).toMatchObject({ id: duplicate.id });
    expect(items.stored.has(duplicate.id)).toBe(true);
    expect(await tombstones.findMerged(ORG, duplicate.id)).toBeNull();
    expect(events.counted[1]).toMatchObject({ type: 'feedback.unmerged' });
    expect(deltaLines(events.counted[1])).toContain('source:api unread:negative 1');
  });

  test('when the duplicates are none, repeated, the item itself or unknown, then the merge is refused before anything is written', async () => {
    const { items, events, tombstones, store } = setUp();
    const kept = store();
    const other = store();
    for (const [ids, code] of [
      [[], 'BAD_REQUEST'],
      [[other.id, other.id], 'BAD_REQUEST'],
      [[kept.id], 'BAD_REQUEST'],
      [[other.id, newId()], 'NOT_FOUND'],
    ] as const) {
      const error = await rejected(() => mergeFeedback({ items, events, tombstones }, ORG, kept.id, ids));
      expect(error.extensions.code).toBe(code);
    }
    expect(items.stored.has(other.id)).toBe(true);
    expect(events.log).toEqual([]);
  });
});

describe('importing a batch', () => {
  test('when records are imported, then the batch is one change holding every item and their summed counts, held for its writer', async () => {
    const { items, events } = setUp();
    const records = [record(), record({ source: 'email' }), record({ sentiment: 'positive' })];
    expect(await importFeedback({ items, events }, ORG, records)).toBe(3);
    const [batch] = events.counted;
    expect(batch).toMatchObject({ type: 'feedback.imported', orgId: ORG });
    expect(batch.itemIds).toHaveLength(3);
    expect(batch.itemId).toBe(batch.itemIds![2]);
    expect(batch.heldUntil!.getTime()).toBeGreaterThan(batch.occurredAt.getTime());
    expect(deltaLines(batch)).toEqual(
      expect.arrayContaining([
        'source:api unread:negative 1',
        'source:api unread:positive 1',
        'source:email unread:negative 1',
      ]),
    );
    expect(items.stored.size).toBe(3);
    expect(await importFeedback({ items, events }, ORG, [])).toBe(0);
    expect(events.recorded).toHaveLength(1);
  });
});

describe('listing', () => {
  const page = { skip: 0, take: 10 };

  test('when a search is asked and the search index answers, then its page is the answer; when it cannot, the items answer', async () => {
    const { items, store } = setUp();
    store();
    const answered = { items: [], total: 42, nextCursor: null, searchReach: null };
    let asked = 0;
    const search: SearchAnswers = {
      async search(_orgId, query) {
        asked += 1;
        return query.search === 'indexed' ? answered : null;
      },
    };
    expect(await listFeedback({ items, search }, ORG, { page, search: 'indexed' })).toBe(answered);
    expect((await listFeedback({ items, search }, ORG, { page, search: 'other' })).total).toBe(1);
    expect(asked).toBe(2);
    expect((await listFeedback({ items, search }, ORG, { page, status: 'read' })).total).toBe(0);
    expect(asked).toBe(2);
  });

  test('when an item is asked for that is neither live nor merged, then NOT_FOUND', async () => {
    const { items, tombstones } = setUp();
    const error = await rejected(() => findFeedback({ items, tombstones }, ORG, newId()));
    expect([error.extensions.code, error.message]).toEqual(['NOT_FOUND', 'Feedback not found']);
  });
});
