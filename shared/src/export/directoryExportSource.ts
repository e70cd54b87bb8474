import type { OrgScopedDocument } from '../data/orgScopedRepository';
import type { DirectoryRecords } from '../directoryAdmin';
import { requireMaxLength, textArgumentMax } from '../textArguments';
import type { ExportRow } from './exportFormats';
import { EXPORT_CURSOR_OPTIONS, EXPORT_READ_OPTIONS, type ExportSource } from './exportSource';

type DirectoryFilter = { search?: string };

/**
 * The export of a directory (contacts, accounts): the records `search` matches, as the list shows them,
 * with the ones removed while the export runs (from their tombstones), as the feedback export does.
 */
export function directoryExportSource<D extends OrgScopedDocument, T>(
  { repository, tombstones }: DirectoryRecords<D, T>,
  options: { resource: string; columns: readonly string[]; toRow: (item: T) => ExportRow },
): ExportSource<DirectoryFilter> {
  const query = (orgId: string, filter: DirectoryFilter, snapshotAt: Date) =>
    repository.searchFilter(orgId, filter.search, snapshotAt);
  return {
    resource: options.resource,
    columns: options.columns,
    parseFilter(input) {
      // The SDL's input type has checked the shape; what is left is the list's own rule for search.
      const given = (input as { search?: string | null }).search;
      const search =
        typeof given === 'string' ? requireMaxLength('search', given, textArgumentMax('search')).trim() : '';
      return search ? { search } : {};
    },
    ensureIndexes: async () => {
      await Promise.all([repository.ensureKeysetIndex(), tombstones.ensureIndexes()]);
    },
    count: (orgId, filter, bound, snapshotAt) =>
      repository.countUpTo(query(orgId, filter, snapshotAt), bound, EXPORT_READ_OPTIONS),
    async *scan(orgId, filter, after, bound, snapshotAt, batchSize) {
      for await (const record of repository.keysetScan(
        query(orgId, filter, snapshotAt),
        after,
        bound,
        batchSize,
        EXPORT_CURSOR_OPTIONS,
      )) {
        yield { _id: record._id, row: options.toRow(record.item) };
      }
    },
    async removedSince(orgId, filter, after, upTo, snapshotAt) {
      const removed = await repository.removedSince(
        tombstones,
        query(orgId, filter, snapshotAt),
        after,
        upTo,
        snapshotAt,
      );
      return removed.map((record) => ({ _id: record._id, row: options.toRow(record.item) }));
    },
  };
}
