import { csvLine } from '../src/export/exportFormats';
import { checkCsvImport } from '../src/import/csvImport';
import { RecordRules } from '../src/rules/recordRules';

describe('a CSV export cell that a spreadsheet would run as a formula', () => {
  test.each([
    ['=HYPERLINK("https://evil.example","Click")', `"'=HYPERLINK(""https://evil.example"",""Click"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
  ])('when text is %j, then it is written with a leading quote', (text, cell) => {
    expect(csvLine({ title: text }, ['title'])).toBe(`${cell}\r\n`);
  });

  test('when a value is a number, a date, a list or text starting otherwise, then it is written as it is', () => {
    const row = { score: -0.5, at: new Date('2026-01-02T03:04:05.000Z'), tags: ['=x'], title: 'a=b', empty: '' };
    expect(csvLine(row, ['score', 'at', 'tags', 'title', 'empty'])).toBe(
      '-0.5,2026-01-02T03:04:05.000Z,"[""=x""]",a=b,\r\n',
    );
  });

  test('when an exported file is imported, then guarded text comes back as it was', () => {
    const names = ['=1+1', '-minus', "'quoted", 'plain'];
    const csv = `name\r\n${names.map((name) => csvLine({ name }, ['name'])).join('')}`;
    const checked = checkCsvImport(csv, { known: ['name'] }, (record) => {
      const rules = new RecordRules(record);
      const name = rules.text('name', { max: 20 });
      return rules.result(() => name);
    });
    expect(checked).toMatchObject({ problems: [], records: names });
  });
});
