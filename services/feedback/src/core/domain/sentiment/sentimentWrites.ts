import { forbidden, type Caller } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import type { Change } from '../../model/change';
import { deltaOf } from '../../model/countDelta';
import {
  countedOf,
  type FeedbackItem,
  type ItemForChange,
  type Sentiment,
  type SentimentGiver,
} from '../../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from '../changeEvents';
import { FEEDBACK_NOT_FOUND, NOT_AUTHORIZED_TO_UPDATE } from '../changeStatus';
import { itemBusy, MAX_CHANGE_ROUNDS } from '../contendedWrite';
import type { SentimentSource } from './feedbackSentiment';

/**
 * The sentiments a model may replace: the service's own readings. One given in the input (`provided`)
 * or by a person is never replaced.
 */
const REPLACEABLE: ReadonlySet<string> = new Set<SentimentSource | SentimentGiver>([
  'computed',
  'uncertain',
  'unsupported-language',
  'model',
]);

/** Whether a model may give this item its sentiment (false for one given in the input or by a person). */
export const modelMayRead = (item: Pick<FeedbackItem, 'sentimentSource'>) => REPLACEABLE.has(item.sentimentSource);

export interface SentimentDeps {
  items: {
    findForChange(orgId: string, id: string): Promise<ItemForChange | null>;
    /** Writes the sentiment if the item still has the sentiment and source it was read with; null when not. */
    setSentiment(
      current: ItemForChange,
      sentiment: Sentiment,
      source: SentimentGiver,
      now: Date,
      changeId: string,
    ): Promise<FeedbackItem | null>;
  };
  events: ChangeEvents;
}

/**
 * One round of giving an item a sentiment, recorded as a change (`feedback.sentiment_read` for a model,
 * `feedback.sentiment_set` for a person: its delta moves the item between the kept counts' sentiments;
 * no webhook event, the changes feed lists the item). The write applies only to the sentiment it was read
 * with: null when another writer got there first (read it again).
 */
function writeSentiment(
  deps: SentimentDeps,
  current: ItemForChange,
  sentiment: Sentiment,
  source: SentimentGiver,
): Promise<FeedbackItem | null> {
  const now = new Date();
  const counted = countedOf(current.item);
  const change: Change = {
    id: `evt_${newObjectIdHex()}`,
    type: source === 'model' ? 'feedback.sentiment_read' : 'feedback.sentiment_set',
    orgId: current.item.orgId,
    itemId: current.item.id,
    occurredAt: now,
    delta: deltaOf(counted, { ...counted, sentiment }),
  };
  return writeWithEvent(deps.events, change, (changeId) =>
    deps.items.setSentiment(current, sentiment, source, now, changeId),
  );
}

/**
 * Gives an item the sentiment a chat model read in its text (`sentimentSource: model`), only over the
 * service's own readings, so a sentiment a person or a client gives meanwhile wins. Returns the item as
 * written, or null when it is gone, its sentiment is not the model's to replace, or the model read what it
 * has already.
 */
export async function setModelSentiment(
  deps: SentimentDeps,
  orgId: string,
  id: string,
  sentiment: Sentiment,
): Promise<FeedbackItem | null> {
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const current = await deps.items.findForChange(orgId, id);
    if (!current || !modelMayRead(current.item)) return null;
    if (current.item.sentimentSource === 'model' && current.item.sentiment === sentiment) return null;
    const written = await writeSentiment(deps, current, sentiment, 'model');
    if (written) return written;
  }
  // Written over by others each time: theirs stands, the model's reading is dropped.
  return null;
}

/**
 * A person's sentiment for an item (`sentimentSource: person`): it replaces any other, the input's
 * included, and nothing the service computes or a model reads replaces it afterwards. Rules as for a
 * status change: an item the organization does not have is FORBIDDEN "Feedback not found", for a
 * read-only caller too, and a read-only caller is refused once the item exists. Giving the sentiment the
 * item has from a person already changes nothing.
 */
export async function setPersonSentiment(
  deps: SentimentDeps,
  caller: Pick<Caller, 'orgId' | 'readOnly'>,
  id: string,
  sentiment: Sentiment,
): Promise<FeedbackItem> {
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const current = await deps.items.findForChange(caller.orgId, id);
    if (!current) throw forbidden(FEEDBACK_NOT_FOUND);
    if (caller.readOnly) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
    if (current.item.sentimentSource === 'person' && current.item.sentiment === sentiment) return current.item;
    const written = await writeSentiment(deps, current, sentiment, 'person');
    if (written) return written;
  }
  throw itemBusy();
}
