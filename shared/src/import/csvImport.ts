import { unguardFormula } from '../export/exportFormats';
import type { Checked } from '../rules/recordRules';
import { parseCsv } from './parseCsv';

/** One broken rule of one row of an import file: the row as a spreadsheet numbers it (the header is 1). */
export interface ImportProblem {
  row: number;
  field: string;
  message: string;
}

/** Most records of one import: a file of this size is checked and written within one request's time. */
export const IMPORT_MAX_ROWS = 5_000;
/** Longest import file, in characters (the `csv` argument). */
export const IMPORT_MAX_CHARACTERS = 2_000_000;
/**
 * The body limit of the admin endpoints (gateway and services): room for a request carrying an import file
 * of IMPORT_MAX_CHARACTERS as JSON text (up to 4 bytes a character) beside its query.
 */
export const ADMIN_MAX_BODY_BYTES = 4 * IMPORT_MAX_CHARACTERS + 64 * 1024;

export interface CsvColumns {
  /** Every column a file may have: the record's fields and the ones an export writes but an import ignores. */
  known: readonly string[];
  /** Columns of numbers (e.g. a score): the cell is read as a number. */
  numbers?: readonly string[];
  /** Columns of lists (tags): a JSON array, as an export writes it, or values separated by `;`. */
  lists?: readonly string[];
}

export interface CheckedImport<R> {
  /** Records in the file (rows below the header that are not blank). */
  rows: number;
  /** Every valid record, in file order; only meaningful when there are no problems. */
  records: R[];
  /** Every problem of every row, in file order. */
  problems: ImportProblem[];
}

/**
 * Reads a CSV file (a header row naming the columns, then one record a row) and checks every record with
 * the owning service's rules, collecting every problem of every row; nothing is written here. Blank cells
 * are absent values.
 */
export function checkCsvImport<R>(
  csv: string,
  columns: CsvColumns,
  check: (record: unknown) => Checked<R>,
): CheckedImport<R> {
  const [header, ...body] = parseCsv(csv);
  if (!header)
    return {
      rows: 0,
      records: [],
      problems: [
        { row: 1, field: 'header', message: 'the file is empty: its first row names the columns (e.g. name,email)' },
      ],
    };
  const names = header.cells.map((cell) => cell.trim());
  const problems: ImportProblem[] = headerProblems(names, columns);
  if (body.length > IMPORT_MAX_ROWS) {
    problems.push({
      row: body[IMPORT_MAX_ROWS].row,
      field: 'row',
      message: `a file may hold at most ${IMPORT_MAX_ROWS} records (this one has ${body.length}): split it`,
    });
  }
  const records: R[] = [];
  for (const { row, cells, unterminated } of body.slice(0, IMPORT_MAX_ROWS)) {
    if (unterminated)
      problems.push({ row, field: 'row', message: 'has a quoted value that never ends (a missing closing ")' });
    if (cells.length > names.length)
      problems.push({
        row,
        field: 'row',
        message: `has ${cells.length} values, more than the ${names.length} columns of the header`,
      });
    const checked = check(recordOf(names, cells, columns));
    if (checked.value !== null) records.push(checked.value);
    else for (const { field, message } of checked.problems) problems.push({ row, field, message });
  }
  return { rows: body.length, records, problems };
}

function headerProblems(names: string[], columns: CsvColumns): ImportProblem[] {
  const problems: ImportProblem[] = [];
  names.forEach((name, index) => {
    if (name === '') problems.push({ row: 1, field: 'header', message: `column ${index + 1} has no name` });
    else if (!columns.known.includes(name))
      problems.push({ row: 1, field: name, message: `unknown column (known: ${columns.known.join(', ')})` });
    else if (names.indexOf(name) !== index)
      problems.push({ row: 1, field: name, message: 'is named by more than one column' });
  });
  return problems;
}

/**
 * The row as a record of the known columns; blank cells are left out, and text an export guarded against
 * formula injection is read back as it was.
 */
function recordOf(names: string[], cells: string[], columns: CsvColumns): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  names.forEach((name, index) => {
    const text = cells[index]?.trim() ?? '';
    if (text === '' || !columns.known.includes(name)) return;
    record[name] = columns.numbers?.includes(name)
      ? numberOf(text)
      : columns.lists?.includes(name)
        ? listOf(text)
        : unguardFormula(text);
  });
  return record;
}

/** A number, or the text itself so the rules name what was given. */
function numberOf(text: string): unknown {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

function listOf(text: string): unknown {
  if (!text.startsWith('['))
    return text
      .split(';')
      .map((value) => value.trim())
      .filter(Boolean);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
