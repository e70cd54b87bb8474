import { requireDirectoryWriter, requireMember } from './auth/memberAccess';
import type { OrgScopedDocument, OrgScopedRepository } from './data/orgScopedRepository';
import type { Tombstones } from './data/tombstones';
import { notFound } from './errors';
import { checkCsvImport, type CsvColumns, type ImportProblem } from './import/csvImport';
import { toPage, type PageResult } from './pagination';
import { valueOrBadRequest, type Checked } from './rules/recordRules';
import type { SubgraphContext } from './subgraph';

/** What one admin request of a directory works on: its records and the tombstones of removed ones. */
export interface DirectoryRecords<D extends OrgScopedDocument, T> {
  repository: OrgScopedRepository<D, T>;
  tombstones: Tombstones;
}

export interface ImportReport {
  /** Records in the file. */
  rows: number;
  /** Records written: 0 for a dry run, or when any row has a problem. */
  imported: number;
  /** Every problem of every row; none written when there is one. */
  problems: ImportProblem[];
}

/** Records are written this many at a time, so one import never holds a whole file in one database call. */
const IMPORT_BATCH = 1_000;

/**
 * The admin operations of a directory (contacts, accounts), for the signed-in members of the web
 * application: every member reads; owners, admins and members change (viewers are refused here, in the
 * service). Each record goes through the service's own rules (`check`), the ones its imports use.
 */
export function directoryAdminOperations<D extends OrgScopedDocument, T, R extends Omit<D, '_id' | 'orgId'>>(
  records: DirectoryRecords<D, T>,
  directory: {
    /** Plural, as people read it: "contacts". */
    resource: string;
    notFoundMessage: string;
    check: (record: unknown, now: Date) => Checked<R>;
    /** The fields an edit replaces (the admin input's fields); the others (creation time) stay. */
    editable: ReadonlyArray<keyof D & string>;
    csv: CsvColumns;
  },
) {
  const { repository, tombstones } = records;
  const writer = (ctx: SubgraphContext) => requireDirectoryWriter(ctx.auth, directory.resource);
  return {
    list(
      ctx: SubgraphContext,
      args: { search?: string | null; skip?: number | null; take?: number | null },
    ): Promise<PageResult<T>> {
      return repository.search(requireMember(ctx.auth).orgId, args.search, toPage(args));
    },
    async get(ctx: SubgraphContext, args: { id: string }): Promise<T> {
      const item = await repository.findById(requireMember(ctx.auth).orgId, args.id);
      if (!item) throw notFound(directory.notFoundMessage);
      return item;
    },
    async create(ctx: SubgraphContext, args: { input: unknown }): Promise<T> {
      const { orgId } = writer(ctx);
      return repository.create(orgId, valueOrBadRequest(directory.check(args.input, new Date())));
    },
    async update(ctx: SubgraphContext, args: { id: string; input: unknown }): Promise<T> {
      const { orgId } = writer(ctx);
      const updated = await repository.update(
        orgId,
        args.id,
        valueOrBadRequest(directory.check(args.input, new Date())),
        directory.editable,
      );
      if (!updated) throw notFound(directory.notFoundMessage);
      return updated;
    },
    async remove(ctx: SubgraphContext, args: { id: string }): Promise<boolean> {
      const { orgId } = writer(ctx);
      if (!(await repository.remove(orgId, args.id, tombstones))) throw notFound(directory.notFoundMessage);
      return true;
    },
    /** Checks every row; writes them all only when none has a problem and this is not a dry run. */
    async importCsv(ctx: SubgraphContext, args: { csv: string; dryRun?: boolean | null }): Promise<ImportReport> {
      const { orgId } = writer(ctx);
      const now = new Date();
      const checked = checkCsvImport(args.csv, directory.csv, (record) => directory.check(record, now));
      if (checked.problems.length > 0 || args.dryRun !== false)
        return { rows: checked.rows, imported: 0, problems: checked.problems };
      let imported = 0;
      for (let start = 0; start < checked.records.length; start += IMPORT_BATCH) {
        imported += await repository.insertMany(orgId, checked.records.slice(start, start + IMPORT_BATCH));
      }
      return { rows: checked.rows, imported, problems: [] };
    },
  };
}
