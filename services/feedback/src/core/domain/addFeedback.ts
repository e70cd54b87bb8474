import { badRequest } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import { changeOf } from '../model/change';
import { deltaOf } from '../model/countDelta';
import { newEvent } from './itemEvents';
import { countedOf, itemOf, type FeedbackItem } from '../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from './changeEvents';
import { fingerprint } from './fingerprint';
import type { ExternalIds, IdempotencyKeys, ItemStore } from './ports';
import { withSentiment } from './sentiment';
import { validateNewFeedback, type NewFeedbackInput } from './newFeedback';

export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', { argument: 'Idempotency-Key' });
  }
  return key;
}

/**
 * Creates an item; its status is always unread and its publishedDate is now unless given. With an
 * `externalId` (the item's id on its platform), any later add of the same organization, source and id
 * returns the item first created, whatever it carries (a redelivery, a retry, a re-sync); otherwise, with
 * an idempotency key, a replay with the same input returns the original item (even under concurrent
 * replays or after a crash between the two writes), and a replay with a different input is refused. The
 * `feedback.created` event is recorded before the item is written and named in the item's own write
 * (see the change stream), so a crash at any point neither loses nor invents it.
 */
export async function addFeedback(
  deps: { items: ItemStore; idempotency: IdempotencyKeys; externalIds: ExternalIds; events: ChangeEvents },
  orgId: string,
  input: NewFeedbackInput,
  idempotencyKey: string | undefined,
): Promise<FeedbackItem> {
  const { publishedDate, ...valid } = validateNewFeedback(input);
  const now = new Date();
  const record = withSentiment({
    ...valid,
    status: 'unread' as const,
    publishedDate: publishedDate ?? now,
    createdAt: now,
  });
  const { externalId, source } = valid;
  const claim = externalId
    ? await deps.externalIds.claim(orgId, source, externalId, now)
    : idempotencyKey
      ? await deps.idempotency.claim(orgId, idempotencyKey, fingerprint(valid), now)
      : null;
  // Items stored before FeedbackItem had orgId lack it; the key is the organization's, so it is this one.
  if (claim?.item) return { ...claim.item, orgId };
  const id = claim?.itemId ?? newObjectIdHex();
  const created = itemOf(id, orgId, record);
  const change = changeOf(newEvent('feedback.created', created, undefined, now), deltaOf(null, countedOf(created)));
  // A replay whose first attempt wrote the item finds it stored: that attempt's change counts it.
  let item = created;
  await writeWithEvent(deps.events, change, async (changeId) => {
    const stored = await deps.items.createOnce(orgId, id, record, [changeId]);
    item = stored.item;
    return stored.created ? stored.item : null;
  });
  if (externalId) await deps.externalIds.complete(orgId, source, externalId, item);
  else if (idempotencyKey) await deps.idempotency.complete(orgId, idempotencyKey, item);
  return item;
}
