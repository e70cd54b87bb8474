import { rememberRecent } from '../src/core/domain/sentiment/recentTexts';
import { TermCounter } from '../src/terms/topTerms';

test('when a text is read again, then its remembered reading is returned without reading it, and the oldest goes first past the bound', () => {
  const reads: string[] = [];
  const read = rememberRecent(
    (text: string) => {
      reads.push(text);
      return text.toUpperCase();
    },
    (text) => (text.length > 5 ? null : text),
    2,
  );
  expect([read('ab'), read('ab'), read('cd')]).toEqual(['AB', 'AB', 'CD']);
  expect(reads).toEqual(['ab', 'cd']);
  read('ef'); // 'ab' is forgotten
  read('ab');
  read('long text');
  read('long text'); // too long to remember
  expect(reads).toEqual(['ab', 'cd', 'ef', 'ab', 'long text', 'long text']);
});

test('when the same texts are counted twice, then each counts every time, as a text read for the first time does', () => {
  const texts = [
    'Refund refund refund, please',
    'The refund never came',
    'Dark mode is too dark',
    'Please add dark mode',
  ];
  const counter = new TermCounter();
  for (const text of [...texts, ...texts]) counter.add(text);
  const top = counter.top(20);
  expect(top).toContainEqual({ term: 'refund', count: 4 });
  expect(top).toContainEqual({ term: 'dark mode', count: 4 });
  expect(top.every(({ count }) => count % 2 === 0)).toBe(true);
});
