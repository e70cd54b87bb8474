import { MatchKeyBackfill, type Connection, type KeyedRecord, type KeysetBackfill } from '@fi/shared/database';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';
import { feedbackMatchKeys } from '../model/feedbackItem';

/**
 * Match keys for items stored before links existed (they have the lower-cased email, not its domain),
 * computed as `addFeedbackItem` and an import compute them.
 */
export function feedbackKeyBackfill(connection: Connection, orgId: string | undefined): KeysetBackfill<KeyedRecord> {
  return new MatchKeyBackfill(
    feedbackModel(connection),
    {
      sources: ['email'],
      keys: { emailLower: true, emailDomain: true },
      keysOf: (record: Pick<FeedbackDocument, 'email'>) => feedbackMatchKeys(record.email),
    },
    orgId,
  );
}
