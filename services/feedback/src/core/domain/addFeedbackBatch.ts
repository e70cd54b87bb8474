import { badRequest } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import { changeOf, type Change } from '../model/change';
import { sumOf } from '../model/countDelta';
import { countedOf, itemOf, type FeedbackItem, type FeedbackRecord } from '../model/feedbackItem';
import { addFeedback } from './addFeedback';
import { writeWithEvent, type ChangeEvents } from './changeEvents';
import { newEvent } from './itemEvents';
import { validateNewFeedback, type NewFeedbackInput } from './newFeedback';
import type { ExternalIds, IdempotencyKeys, ItemStore } from './ports';
import { withSentiment } from './sentiment';

/** Inputs per batch: a connected platform's events are handed over in batches of this many at most. */
export const MAX_BATCH_INPUTS = 100;

/** How long the batch's writer may take per item to write and count it before the relay counts for it. */
const WRITER_MS_PER_ITEM = 10;

/** What became of one input of a batch: its item (the one first created, for an externalId added before), or why it was refused. */
export type BatchOutcome = { item: FeedbackItem } | { refused: string };

interface Accepted {
  index: number;
  record: FeedbackRecord;
  source: string;
  externalId?: string;
}

const isBadRequest = (error: unknown) =>
  (error as { extensions?: { code?: string } }).extensions?.code === 'BAD_REQUEST';

/**
 * Creates many items of one organization at once (a connected platform's events, see the integrations
 * service), each by addFeedback's rules: an input that breaks one is refused alone, with the message
 * addFeedbackItem would give; an `externalId` already added answers the item first created (within the
 * batch too). Each new item has its own `feedback.created` event, recorded before the write and named in
 * the item's own document, as addFeedback's; their counts go in one change (an import's: one write of the
 * kept counts for the batch instead of one per item, which is what limits how fast items can be added),
 * of the items this batch wrote. An externalId claimed but without its item yet (an earlier add died
 * between the two, or another is at work on it now) goes through addFeedback, which writes the item under
 * the claimed id unless it is there. Resolves in the inputs' order.
 */
export async function addFeedbackBatch(
  deps: { items: ItemStore; idempotency: IdempotencyKeys; externalIds: ExternalIds; events: ChangeEvents },
  orgId: string,
  inputs: NewFeedbackInput[],
): Promise<BatchOutcome[]> {
  if (inputs.length > MAX_BATCH_INPUTS)
    throw badRequest(`At most ${MAX_BATCH_INPUTS} inputs per batch`, { argument: 'inputs', max: MAX_BATCH_INPUTS });
  const now = new Date();
  const outcomes: Array<BatchOutcome | undefined> = new Array(inputs.length);
  // A repeated externalId within the batch answers as its first input does.
  const firstOf = new Map<string, number>();
  const repeats: Array<[number, number]> = [];
  const accepted: Accepted[] = [];
  inputs.forEach((input, index) => {
    try {
      const { publishedDate, ...valid } = validateNewFeedback(input);
      const record = withSentiment({
        ...valid,
        status: 'unread' as const,
        publishedDate: publishedDate ?? now,
        createdAt: now,
      });
      if (valid.externalId) {
        const key = `${valid.source}\u0000${valid.externalId}`;
        const first = firstOf.get(key);
        if (first !== undefined) return repeats.push([index, first]);
        firstOf.set(key, index);
      }
      accepted.push({ index, record, source: valid.source, externalId: valid.externalId });
    } catch (error) {
      if (!isBadRequest(error)) throw error;
      outcomes[index] = { refused: (error as Error).message };
    }
  });

  const keyed = accepted.filter((one) => one.externalId !== undefined);
  const claimed = await deps.externalIds.claimAll(
    orgId,
    keyed.map((one) => ({ source: one.source, externalId: one.externalId! })),
    now,
  );
  const claimOf = new Map(keyed.map((one, i) => [one.index, claimed[i]]));
  const claims = accepted.map((one) => claimOf.get(one.index) ?? null);
  const fresh: Array<Accepted & { id: string }> = [];
  const unfinished: Accepted[] = [];
  accepted.forEach((one, i) => {
    const claim = claims[i];
    if (claim?.item) outcomes[one.index] = { item: { ...claim.item, orgId } };
    else if (claim && !claim.fresh) unfinished.push(one);
    else fresh.push({ ...one, id: claim?.itemId ?? newObjectIdHex() });
  });

  if (fresh.length > 0) {
    const items = fresh.map((one) => itemOf(one.id, orgId, one.record));
    const created = items.map((item) => changeOf(newEvent('feedback.created', item, undefined, now), []));
    const counted: Change = {
      id: `imp_${newObjectIdHex()}`,
      type: 'feedback.imported',
      orgId,
      itemId: items[items.length - 1].id,
      occurredAt: now,
      heldUntil: new Date(now.getTime() + items.length * WRITER_MS_PER_ITEM),
      delta: sumOf(items.map((item) => [null, countedOf(item)])),
      itemIds: items.map((item) => item.id),
    };
    await deps.events.recordAll(created);
    await writeWithEvent(deps.events, counted, async () => {
      const written = new Set(
        await deps.items.insertEach(
          orgId,
          items.map((item) => item.id),
          fresh.map((one) => one.record),
          created.map((change) => change.id),
        ),
      );
      // An item another add of its external id wrote first (a redelivery worked on at the same moment)
      // is that add's to count.
      counted.delta = sumOf(items.filter((item) => written.has(item.id)).map((item) => [null, countedOf(item)]));
      return written;
    });
    await Promise.all(created.map((change) => deps.events.written(change)));
    await deps.externalIds.completeAll(
      orgId,
      fresh.flatMap((one, i) =>
        one.externalId ? [{ source: one.source, externalId: one.externalId, item: items[i] }] : [],
      ),
    );
    fresh.forEach((one, i) => (outcomes[one.index] = { item: items[i] }));
  }
  for (const one of unfinished) {
    outcomes[one.index] = { item: await addFeedback(deps, orgId, inputs[one.index], undefined) };
  }
  for (const [index, first] of repeats) {
    outcomes[index] = outcomes[first];
  }
  return outcomes as BatchOutcome[];
}
