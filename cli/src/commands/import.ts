import type { Databases } from '../databases';
import { describeInvalid, IMPORT_KINDS, validateRecords, writeRecords, type ImportKind } from '../import/importRecords';
import { readRecordsFile } from '../import/readRecordsFile';
import { UsageError, type Output } from '../output';
import { progressBar } from '../progress';

/** Problem lines shown in full; a file with more has a fault that repeats, and the count says how many. */
const SHOWN_PROBLEMS = 50;

/**
 * `import contacts|accounts|feedback FILE --org ORG [--skip-invalid]`: every record is checked by its
 * service's domain rules before anything is written. By default a file with one invalid record writes
 * nothing; with `--skip-invalid` exactly the valid records are written and the skipped ones listed.
 */
export async function importCommand(
  kind: string | undefined,
  file: string | undefined,
  options: { org?: string; skipInvalid?: boolean },
  db: Databases,
  out: Output,
) {
  if (!kind || !(IMPORT_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`import takes one of ${IMPORT_KINDS.join(', ')}`);
  if (!file) throw new UsageError('import needs a FILE (a JSON array or NDJSON)');
  const { org } = options;
  if (!org) throw new UsageError('import needs --org ORG');

  const values = readRecordsFile(file);
  const { records, invalid } = validateRecords(kind as ImportKind, values);
  if (invalid.length > 0) {
    const lines = invalid.flatMap(describeInvalid);
    for (const line of lines.slice(0, SHOWN_PROBLEMS)) out.info(line);
    if (lines.length > SHOWN_PROBLEMS) out.info(`... and ${lines.length - SHOWN_PROBLEMS} more problems`);
    if (!options.skipInvalid) {
      throw new UsageError(
        `${invalid.length} of ${values.length} records are invalid; nothing was imported (--skip-invalid imports the valid ones)`,
      );
    }
    out.info(`Skipping the ${invalid.length} invalid records listed above.`);
  }
  const bar = progressBar(`Importing ${kind}`, records.length);
  const written = await writeRecords(kind as ImportKind, org, records, db, bar.update);
  bar.finish();
  out.info(
    `Imported ${written} ${kind} into ${org} (${values.length} read, ${invalid.length} invalid${invalid.length > 0 ? ' and skipped' : ''}).`,
  );
}
