import type { ExportSource } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import { parseFeedbackListArgs, type FeedbackListArgs, type FeedbackTombstones } from '../core';
import { feedbackExportReads, type FeedbackExportFilter } from './data/feedbackExportReads';

/** Every field of FeedbackItem, in the order of the spec's table, then what this API added. */
export const FEEDBACK_EXPORT_COLUMNS = [
  'id',
  'source',
  'title',
  'content',
  'author',
  'email',
  'sentiment',
  'status',
  'metadata',
  'publishedDate',
  'createdAt',
  'sentimentScore',
  'sentimentSource',
  'updatedAt',
] as const;

/** The feedback export: feedbackItems' filters, live items by keyset plus the ones removed while it runs. */
export function feedbackExportSource(
  connection: Connection,
  removals: FeedbackTombstones,
): ExportSource<FeedbackExportFilter> {
  const reads = feedbackExportReads(connection, removals);
  return {
    resource: 'feedback',
    columns: FEEDBACK_EXPORT_COLUMNS,
    parseFilter(input) {
      // The list's own validation, so an export accepts exactly what feedbackItems accepts.
      const {
        page: _page,
        after: _after,
        ...filter
      } = parseFeedbackListArgs({ ...(input as FeedbackListArgs), take: 0 });
      return filter;
    },
    ensureIndexes: () => reads.ensureIndexes(),
    count: (orgId, filter, bound, snapshotAt) => reads.count(orgId, filter, bound, snapshotAt),
    scan: (orgId, filter, after, bound, snapshotAt, batchSize) =>
      reads.scan(orgId, filter, after, bound, snapshotAt, batchSize),
    removedSince: (orgId, filter, after, upTo, snapshotAt) =>
      reads.removedSince(orgId, filter, after, upTo, snapshotAt),
  };
}
