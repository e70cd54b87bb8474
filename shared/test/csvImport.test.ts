import { checkCsvImport, IMPORT_MAX_ROWS } from '../src/import/csvImport';
import { parseCsv } from '../src/import/parseCsv';
import { RecordRules } from '../src/rules/recordRules';

const check = (record: unknown) => {
  const rules = new RecordRules(record, ['name', 'email', 'score', 'tags', 'id']);
  const value = {
    name: rules.text('name', { required: true, max: 10 }),
    email: rules.email('email'),
    score: rules.fraction('score'),
    tags: rules.tags('tags', { maxCount: 10, max: 20 }),
  };
  return rules.result(() => value);
};
const COLUMNS = { known: ['name', 'email', 'score', 'tags', 'id'], numbers: ['score'], lists: ['tags'] };

describe('parseCsv', () => {
  test('when values are quoted, hold commas, quotes and line breaks, and rows end in CRLF or LF, then each comes back whole with its spreadsheet row', () => {
    const rows = parseCsv('\ufeffname,note\r\n"Ada, Countess","said ""hi""\nthen left"\n\n,\nGrace,plain\n');
    expect(rows).toEqual([
      { row: 1, cells: ['name', 'note'] },
      { row: 2, cells: ['Ada, Countess', 'said "hi"\nthen left'] },
      { row: 5, cells: ['Grace', 'plain'] },
    ]);
  });

  test('when a quoted value never ends, then its row says so', () => {
    expect(parseCsv('name\n"Ada\nGrace')).toEqual([
      { row: 1, cells: ['name'] },
      { row: 2, cells: ['Ada\nGrace'], unterminated: true },
    ]);
  });
});

describe('checkCsvImport', () => {
  test('when every row is valid, then the records come typed (numbers, lists as JSON or ;-separated) with no problem', () => {
    const checked = checkCsvImport(
      'id,name,email,score,tags\nx1,Ada,ada@example.com,0.5,"[""a"",""b""]"\n,Grace,,,c; d\n',
      COLUMNS,
      check,
    );
    expect(checked).toEqual({
      rows: 2,
      records: [
        { name: 'Ada', email: 'ada@example.com', score: 0.5, tags: ['a', 'b'] },
        { name: 'Grace', email: undefined, score: undefined, tags: ['c', 'd'] },
      ],
      problems: [],
    });
  });

  test('when rows break rules, then every problem of every row is listed with its row and field', () => {
    const checked = checkCsvImport(
      'name,email,score,colour\nAda,not-an-email,2,red\n,ada@example.com,x\nGrace,g@example.com,0.1,blue,extra\n',
      COLUMNS,
      check,
    );
    expect(checked.problems).toEqual([
      { row: 1, field: 'colour', message: expect.stringContaining('unknown column') },
      { row: 2, field: 'email', message: 'must be a valid email address' },
      { row: 2, field: 'score', message: 'must be a number from 0 to 1 (got 2)' },
      { row: 3, field: 'name', message: 'is required' },
      { row: 3, field: 'score', message: 'must be a number from 0 to 1 (got "x")' },
      { row: 4, field: 'row', message: 'has 5 values, more than the 4 columns of the header' },
    ]);
  });

  test('when the file is empty or too long, then that is the problem', () => {
    expect(checkCsvImport('', COLUMNS, check).problems).toEqual([
      { row: 1, field: 'header', message: expect.stringContaining('empty') },
    ]);
    const long = `name\n${'Ada\n'.repeat(IMPORT_MAX_ROWS + 1)}`;
    expect(checkCsvImport(long, COLUMNS, check).problems).toEqual([
      { row: IMPORT_MAX_ROWS + 2, field: 'row', message: expect.stringContaining(`at most ${IMPORT_MAX_ROWS}`) },
    ]);
  });
});
