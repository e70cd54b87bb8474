import { substringPattern } from '../src/validation';

describe('a search pattern', () => {
  test.each([
    ['.*', 'a.*b', 'ab'],
    ['(a+)+$', 'x(a+)+$y', 'aaaa'],
    ['\u0000', 'a\u0000b', 'ab'],
    ['[x]', 'a[X]b', 'axb'],
  ])(
    'when the search is %j, then it matches only that literal text, case-insensitively',
    (search, matching, notMatching) => {
      const pattern = substringPattern(search);
      expect(pattern?.test(matching)).toBe(true);
      expect(pattern?.test(notMatching)).toBe(false);
      expect(pattern?.source).not.toContain('\u0000');
    },
  );

  test('when the search is blank, then there is no filter', () => {
    expect(substringPattern('  ')).toBeUndefined();
    expect(substringPattern(null)).toBeUndefined();
  });
});
