import { badRequest } from '../errors';

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One exported record: plain JSON-compatible values (dates as Date, metadata as an object). */
export type ExportRow = Record<string, unknown>;

export function parseExportFormat(format: string | null | undefined): ExportFormat {
  const value = format ?? 'ndjson';
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw badRequest(`format must be one of ${EXPORT_FORMATS.join(', ')} (got ${JSON.stringify(value)})`, {
      argument: 'format',
    });
  }
  return value as ExportFormat;
}

const jsonValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** One JSON object per line; dates as ISO 8601 text, absent values as null. */
export function ndjsonLine(row: ExportRow, columns: readonly string[]): string {
  const ordered: Record<string, unknown> = {};
  for (const column of columns) ordered[column] = jsonValue(row[column] ?? null);
  return `${JSON.stringify(ordered)}\n`;
}

/**
 * Text a spreadsheet would read as a formula (`=`, `+`, `-`, `@`) or that some strip to reach one (tab, CR):
 * OWASP's CSV injection advice is a leading `'`, which spreadsheets show as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const GUARDED_FORMULA = /^'[=+\-@\t\r]/;

/** Text as a CSV export writes it: a leading `'` when it would start a formula. */
export const guardFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** What guardFormula wrote, back as it was: an import of an export stores what was exported. */
export const unguardFormula = (text: string) => (GUARDED_FORMULA.test(text) ? text.slice(1) : text);

/**
 * RFC 4180 field: quoted when it holds a comma, a quote, CR or LF; quotes doubled. Text values that start
 * like a formula get a leading `'`; numbers and dates are written as they are (a negative number is data,
 * and a number is never text a person typed).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  // Objects and arrays (metadata, tags) as JSON text, so a spreadsheet or a parser gets them back whole.
  else if (typeof value === 'object') text = JSON.stringify(value);
  else if (typeof value === 'string') text = guardFormula(value);
  else text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 record, CRLF-terminated. */
export const csvLine = (row: ExportRow, columns: readonly string[]) =>
  `${columns.map((column) => csvField(row[column])).join(',')}\r\n`;

export const csvHeader = (columns: readonly string[]) => `${columns.map(csvField).join(',')}\r\n`;

/** The text of one page of rows; the CSV header opens the file's first page. */
export function formatRows(
  format: ExportFormat,
  columns: readonly string[],
  rows: ExportRow[],
  first: boolean,
): string {
  if (format === 'ndjson') return rows.map((row) => ndjsonLine(row, columns)).join('');
  return (first ? csvHeader(columns) : '') + rows.map((row) => csvLine(row, columns)).join('');
}
