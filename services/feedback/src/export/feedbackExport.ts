import type { ExportRecord, ExportSource } from '@fi/shared';
import { feedbackExportReads, type FeedbackExportFilter as StoredFilter } from '../data/feedbackExportReads';
import type { FeedbackDocument } from '../data/feedbackModel';
import type { Connection } from '@fi/shared/database';
import { toItem } from '../data/feedbackItem';
import { feedbackModel } from '../data/feedbackModel';
import type { FeedbackTombstones } from '../data/feedbackTombstones';
import { parseFeedbackListArgs } from '../domain/feedbackListQuery';
import type { FeedbackExportFilter } from '../generated/resolvers';

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

const toRecord = (doc: FeedbackDocument): ExportRecord => {
  const { orgId: _orgId, ...row } = toItem(doc);
  return { _id: doc._id, row };
};

/** The feedback export: feedbackItems' filters, live items by keyset plus the ones removed while it runs. */
export function feedbackExportSource(connection: Connection, removals: FeedbackTombstones): ExportSource<StoredFilter> {
  const reads = feedbackExportReads(feedbackModel(connection), removals);
  return {
    resource: 'feedback',
    columns: FEEDBACK_EXPORT_COLUMNS,
    parseFilter(input) {
      // The list's own validation, so an export accepts exactly what feedbackItems accepts.
      const {
        page: _page,
        after: _after,
        ...filter
      } = parseFeedbackListArgs({ ...(input as FeedbackExportFilter), take: 0 });
      return filter;
    },
    ensureIndexes: () => reads.ensureIndexes(),
    count: (orgId, filter, bound, snapshotAt) => reads.count(orgId, filter, bound, snapshotAt),
    async *scan(orgId, filter, after, bound, snapshotAt, batchSize) {
      for await (const doc of reads.scan(orgId, filter, after, bound, snapshotAt, batchSize)) yield toRecord(doc);
    },
    async removedSince(orgId, filter, after, upTo, snapshotAt) {
      return (await reads.removedSince(orgId, filter, after, upTo, snapshotAt)).map(toRecord);
    },
  };
}
