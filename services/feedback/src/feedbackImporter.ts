import type { Connection } from '@fi/shared/database';
import type { FeedbackRecord } from './data/feedbackItem';
import { FeedbackRepository } from './data/feedbackRepository';
import { importFeedback } from './domain/importFeedback';
import { offlineChangeEvents } from './webhooks/webhooks';

/**
 * Bulk writes for the CLI (import, seed): checked records in counted batches, as the service would
 * write them. `warn` hears of a batch whose count is left to the service's outbox relay.
 */
export async function feedbackImporter(connection: Connection, warn: (error: unknown, changeId: string) => void) {
  const repository = new FeedbackRepository(connection);
  await repository.ensureIndexes();
  const events = await offlineChangeEvents(connection, repository, warn);
  return (orgId: string, records: FeedbackRecord[]) => importFeedback({ repository, events }, orgId, records);
}
