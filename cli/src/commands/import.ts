import type { Databases } from '../databases';
import { IMPORT_KINDS, validateRecords, writeRecords, type ImportKind } from '../import/importRecords';
import { readRecordsFile } from '../import/readRecordsFile';
import { UsageError, type Output } from '../output';
import { progressBar } from '../progress';

const SHOWN_PROBLEMS = 20;

/**
 * `import contacts|accounts|feedback FILE --org ORG`: every record is validated before anything is
 * written, so a file with one bad record writes nothing.
 */
export async function importCommand(kind: string | undefined, file: string | undefined, org: string | undefined, db: Databases, out: Output) {
  if (!kind || !(IMPORT_KINDS as readonly string[]).includes(kind)) throw new UsageError(`import takes one of ${IMPORT_KINDS.join(', ')}`);
  if (!file) throw new UsageError('import needs a FILE (a JSON array or NDJSON)');
  if (!org) throw new UsageError('import needs --org ORG');

  const values = readRecordsFile(file);
  const { records, invalid } = validateRecords(kind as ImportKind, values);
  if (invalid.length > 0) {
    for (const { index, problems } of invalid.slice(0, SHOWN_PROBLEMS)) out.info(`record ${index + 1}: ${problems.join('; ')}`);
    if (invalid.length > SHOWN_PROBLEMS) out.info(`... and ${invalid.length - SHOWN_PROBLEMS} more invalid records`);
    throw new UsageError(`${invalid.length} of ${values.length} records are invalid; nothing was imported`);
  }
  const bar = progressBar(`Importing ${kind}`, records.length);
  const written = await writeRecords(kind as ImportKind, org, records, db, bar.update);
  bar.finish();
  out.info(`Imported ${written} ${kind} into ${org} (${values.length} read, 0 invalid).`);
}
