import type { Connection, mongo, Types } from 'mongoose';
import { EXPORT_CURSOR_OPTIONS, EXPORT_READ_OPTIONS, type ExportRecord } from '@fi/shared';
import type { FeedbackQuery, FeedbackTombstones } from '../../core';
import { feedbackFilter, feedbackModel, toItem, type FeedbackDocument } from '../../core/data';

/** A list request's filters as an export stores them (no page, no cursor). */
export type FeedbackExportFilter = Omit<FeedbackQuery, 'page' | 'after'>;

type IdRange = { $gt?: Types.ObjectId; $lte: Types.ObjectId };

/** An item as an export file holds it: every field but the organization. */
const toRecord = (doc: FeedbackDocument): ExportRecord => {
  const { orgId: _orgId, ...row } = toItem(doc);
  return { _id: doc._id, row };
};

/**
 * What a feedback export reads: the list's filter over an id range, created at or before the snapshot,
 * straight from the driver so each read carries the export's own time limit (per batch for the cursor).
 */
export function feedbackExportReads(connection: Connection, removals: FeedbackTombstones) {
  const items = feedbackModel(connection).collection;
  const selection = (orgId: string, filter: FeedbackExportFilter, range: IdRange, snapshotAt: Date) =>
    ({
      ...feedbackFilter(orgId, { ...filter, page: { skip: 0, take: 0 } }),
      _id: range,
      createdAt: { $lte: snapshotAt },
    }) as mongo.Filter<mongo.Document>;
  const range = (after: Types.ObjectId | null, upTo: Types.ObjectId): IdRange =>
    after ? { $gt: after, $lte: upTo } : { $lte: upTo };
  return {
    async ensureIndexes(): Promise<void> {
      // The keyset pages' (organization, _id) index is the items' own (core/data/feedbackModel.ts).
      await removals.ensureIndexes();
    },
    count: (orgId: string, filter: FeedbackExportFilter, bound: Types.ObjectId, snapshotAt: Date) =>
      items.countDocuments(selection(orgId, filter, { $lte: bound }, snapshotAt), EXPORT_READ_OPTIONS),
    async *scan(
      orgId: string,
      filter: FeedbackExportFilter,
      after: Types.ObjectId | null,
      bound: Types.ObjectId,
      snapshotAt: Date,
      batchSize: number,
    ): AsyncGenerator<ExportRecord> {
      const cursor = items.find(selection(orgId, filter, range(after, bound), snapshotAt), {
        ...EXPORT_CURSOR_OPTIONS,
        sort: { _id: 1 },
        batchSize,
      });
      for await (const doc of cursor) yield toRecord(doc as unknown as FeedbackDocument);
    },
    async removedSince(
      orgId: string,
      filter: FeedbackExportFilter,
      after: Types.ObjectId | null,
      upTo: Types.ObjectId,
      snapshotAt: Date,
    ): Promise<ExportRecord[]> {
      const removed = await removals.removedSince<FeedbackDocument>(
        selection(orgId, filter, range(after, upTo), snapshotAt),
        snapshotAt,
      );
      return removed.map(toRecord);
    },
  };
}
