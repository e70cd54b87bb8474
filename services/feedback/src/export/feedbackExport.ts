import type { mongo, Types } from 'mongoose';
import { EXPORT_CURSOR_OPTIONS, EXPORT_READ_OPTIONS, INDEX_BUILD_TIME_LIMIT, type ExportRecord, type ExportSource } from '@fi/shared';
import { feedbackFilter } from '../data/feedbackList';
import type { FeedbackDocument } from '../data/feedbackModel';
import { toItem, type FeedbackRepository } from '../data/feedbackRepository';
import { parseFeedbackListArgs, type FeedbackQuery } from '../domain/feedbackListQuery';
import type { FeedbackExportFilter } from '../generated/resolvers';
import type { RemovedFeedbackLog } from './removedFeedbackLog';

/** Every field of FeedbackItem, in the order of the spec's table, then what this API added. */
export const FEEDBACK_EXPORT_COLUMNS = [
  'id', 'source', 'title', 'content', 'author', 'email', 'sentiment', 'status', 'metadata', 'publishedDate', 'createdAt',
  'sentimentScore', 'sentimentSource', 'updatedAt',
] as const;

type StoredFilter = Omit<FeedbackQuery, 'page' | 'after'>;

const toRecord = (doc: FeedbackDocument): ExportRecord => {
  const { orgId: _orgId, ...row } = toItem(doc);
  return { _id: doc._id, row };
};

const asQuery = (filter: StoredFilter): FeedbackQuery => ({ ...filter, page: { skip: 0, take: 0 } });

/** The list's filter as the driver takes it (export reads go to the driver, for their own time limit). */
const selection = (orgId: string, filter: StoredFilter, range: { $gt?: Types.ObjectId; $lte: Types.ObjectId }, snapshotAt: Date) =>
  ({ ...feedbackFilter(orgId, asQuery(filter)), _id: range, createdAt: { $lte: snapshotAt } }) as mongo.Filter<mongo.Document>;

/** The feedback export: feedbackItems' filters, live items by keyset plus the ones removed while it runs. */
export function feedbackExportSource(repository: FeedbackRepository, removals: RemovedFeedbackLog): ExportSource<StoredFilter> {
  const model = repository.model;
  return {
    resource: 'feedback',
    columns: FEEDBACK_EXPORT_COLUMNS,
    parseFilter(input) {
      // The list's own validation, so an export accepts exactly what feedbackItems accepts.
      const { page: _page, after: _after, ...filter } = parseFeedbackListArgs({ ...(input as FeedbackExportFilter), take: 0 });
      return filter;
    },
    async ensureIndexes() {
      await Promise.all([model.collection.createIndex({ orgId: 1, _id: 1 }, INDEX_BUILD_TIME_LIMIT), removals.ensureIndexes()]);
    },
    count: (orgId, filter, bound, snapshotAt) => model.collection.countDocuments(selection(orgId, filter, { $lte: bound }, snapshotAt), EXPORT_READ_OPTIONS),
    async *scan(orgId, filter, after, bound, snapshotAt, batchSize) {
      const range = after ? { $gt: after, $lte: bound } : { $lte: bound };
      const cursor = model.collection.find(selection(orgId, filter, range, snapshotAt), { ...EXPORT_CURSOR_OPTIONS, sort: { _id: 1 }, batchSize });
      for await (const doc of cursor) yield toRecord(doc as unknown as FeedbackDocument);
    },
    async removedSince(orgId, filter, after: Types.ObjectId | null, upTo, snapshotAt) {
      const range = after ? { $gt: after, $lte: upTo } : { $lte: upTo };
      return (await removals.removedSince(selection(orgId, filter, range, snapshotAt), snapshotAt)).map(toRecord);
    },
  };
}
