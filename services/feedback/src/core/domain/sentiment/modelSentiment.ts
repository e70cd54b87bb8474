import { newObjectIdHex } from '@fi/shared/database';
import type { Change } from '../../model/change';
import { deltaOf } from '../../model/countDelta';
import { countedOf, type FeedbackItem, type ItemForChange, type Sentiment } from '../../model/feedbackItem';
import { writeWithEvent, type ChangeEvents } from '../changeEvents';
import { MAX_CHANGE_ROUNDS } from '../contendedWrite';
import type { SentimentSource } from './feedbackSentiment';

/**
 * The sentiments a model may replace: the service's own readings. One given in the input (`provided`)
 * or by a person is never replaced.
 */
const REPLACEABLE: ReadonlySet<string> = new Set<SentimentSource | 'model'>([
  'computed',
  'uncertain',
  'unsupported-language',
  'model',
]);

/** Whether a model may give this item its sentiment (false for one given in the input or by a person). */
export const modelMayRead = (item: Pick<FeedbackItem, 'sentimentSource'>) => REPLACEABLE.has(item.sentimentSource);

export interface ModelSentimentDeps {
  items: {
    findForChange(orgId: string, id: string): Promise<ItemForChange | null>;
    setModelSentiment(
      current: ItemForChange,
      sentiment: Sentiment,
      now: Date,
      changeId: string,
    ): Promise<FeedbackItem | null>;
  };
  events: ChangeEvents;
}

/**
 * Gives an item the sentiment a chat model read in its text (`sentimentSource: model`), by the core's
 * rule: only over the service's own readings, recorded as a change (`feedback.sentiment_read`: its
 * delta moves the item between the kept counts' sentiments; no webhook event). The write applies only
 * to the sentiment it was read with, so a sentiment a person or a client gives meanwhile wins. Returns
 * the item as written, or null when it is gone, its sentiment is not the model's to replace, or the model
 * read what it has already.
 */
export async function setModelSentiment(
  deps: ModelSentimentDeps,
  orgId: string,
  id: string,
  sentiment: Sentiment,
): Promise<FeedbackItem | null> {
  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const current = await deps.items.findForChange(orgId, id);
    if (!current || !modelMayRead(current.item)) return null;
    const before = current.item;
    if (before.sentimentSource === 'model' && before.sentiment === sentiment) return null;
    const now = new Date();
    const counted = countedOf(before);
    const change: Change = {
      id: `evt_${newObjectIdHex()}`,
      type: 'feedback.sentiment_read',
      orgId,
      itemId: id,
      occurredAt: now,
      delta: deltaOf(counted, { ...counted, sentiment }),
    };
    const written = await writeWithEvent(deps.events, change, (changeId) =>
      deps.items.setModelSentiment(current, sentiment, now, changeId),
    );
    if (written) return written;
  }
  // Written over by others each time: theirs stands, the model's reading is dropped.
  return null;
}
