import type { Connection } from '@fi/shared/database';
import { changeStream, ChangeOutbox } from './changes';
import { CountStore, FeedbackRepository, importFeedback, type FeedbackRecord } from './core';

/**
 * Bulk writes for the CLI (import, seed): checked records in counted batches, as the service would
 * write them. `warn` hears of a batch whose count is left to the service's relay.
 */
export async function feedbackImporter(connection: Connection, warn: (error: unknown, changeId: string) => void) {
  const repository = new FeedbackRepository(connection);
  const outbox = new ChangeOutbox(connection);
  const counts = new CountStore(connection);
  await Promise.all([repository.ensureIndexes(), outbox.ensureIndexes(), counts.ensureIndexes()]);
  // Only records and counts: the services' relays, with their own grace period, close what is left.
  const events = changeStream({ outbox, counts, items: repository }, { warn });
  return async (orgId: string, records: FeedbackRecord[]) => {
    const written = await importFeedback({ items: repository, events }, orgId, records);
    await events.settle();
    return written;
  };
}
