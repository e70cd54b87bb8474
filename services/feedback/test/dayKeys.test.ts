import { dayKeys } from '../src/core/data/ferretDbV1';

describe('the keys of day cells in a range', () => {
  test('when both ends are days, then the range is the list of its days, across a month and a leap day', () => {
    expect(dayKeys('2028-02-27', '2028-03-02')).toEqual({
      $in: ['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01'],
    });
  });

  test('when an end is open or the range is longer than two years and their previous period, then it stays a range', () => {
    expect(dayKeys('', '2026-01-01')).toEqual({ $gte: '', $lt: '2026-01-01' });
    expect(dayKeys('2026-01-01', '\uffff')).toEqual({ $gte: '2026-01-01', $lt: '\uffff' });
    expect(dayKeys('2020-01-01', '2026-01-01')).toEqual({ $gte: '2020-01-01', $lt: '2026-01-01' });
  });

  test('when the range is empty, then it stays an empty range', () => {
    expect(dayKeys('2026-01-02', '2026-01-02')).toEqual({ $gte: '2026-01-02', $lt: '2026-01-02' });
  });
});
