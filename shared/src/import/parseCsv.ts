/** One record of a CSV file: its cells, and the row number a spreadsheet shows for it (the first is 1). */
export interface CsvRow {
  row: number;
  cells: string[];
  /** The record's last quoted value never ended (the rest of the file was read into it). */
  unterminated?: boolean;
}

/**
 * RFC 4180: comma-separated, values with commas, quotes or line breaks quoted ("" is a quote), rows ended
 * by CRLF or LF; a leading byte-order mark is dropped. A quote inside an unquoted value is kept as it is,
 * as spreadsheets do. Rows whose cells are all blank are left out (their numbers are not reused).
 */
export function parseCsv(text: string): CsvRow[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let row = 1;
  const endRow = (unterminated = false) => {
    cells.push(cell);
    if (cells.some((value) => value.trim() !== ''))
      rows.push({ row, cells, ...(unterminated ? { unterminated } : {}) });
    cells = [];
    cell = '';
    row += 1;
  };
  for (let i = 0; i < input.length; i += 1) {
    const char = input[i];
    if (quoted) {
      if (char !== '"') cell += char;
      else if (input[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else quoted = false;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && input[i + 1] === '\n') i += 1;
      endRow();
    } else cell += char;
  }
  if (quoted || cell !== '' || cells.length > 0) endRow(quoted);
  return rows;
}
