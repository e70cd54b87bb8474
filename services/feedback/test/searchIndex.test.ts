import { BLOCK_SIZE, decodeChunk, decodeIds, encodeChunk, encodeIds } from '../src/search/data/postingCodec';
import type { Posting } from '../src/search/data/indexStore';
import { matchedSeqs } from '../src/search/searchMatches';
import { foldChar, gramPositions, itemText, termGrams } from '../src/search/searchText';
import { escapeRegExp } from '@fi/shared';

/** Every code point that has another case (the only ones a case-insensitive match can equate). */
function casedChars(): string[] {
  const chars: string[] = [];
  for (let code = 0; code <= 0x1ffff; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (char.toUpperCase() !== char || char.toLowerCase() !== char) chars.push(char);
  }
  return chars;
}

describe('folding', () => {
  test('when two characters match case-insensitively, then they fold alike, and characters that do not never fold alike', () => {
    const chars = casedChars();
    const byFold = new Map<string, string[]>();
    for (const char of chars) byFold.set(foldChar(char), [...(byFold.get(foldChar(char)) ?? []), char]);
    for (const char of chars) {
      const pattern = new RegExp(`^${escapeRegExp(char)}$`, 'iu');
      // Only candidates that change under upper/lower casing can be equal to another character.
      const equal = [char.toUpperCase(), char.toLowerCase(), ...(byFold.get(foldChar(char)) ?? [])].filter(
        (other) => [...other].length === 1 && pattern.test(other),
      );
      for (const other of equal) expect([char, foldChar(other)]).toEqual([char, foldChar(char)]);
      for (const other of byFold.get(foldChar(char)) ?? [])
        expect([char, other, pattern.test(other)]).toEqual([char, other, true]);
    }
    expect(foldChar('K')).toBe('k');
    expect(foldChar('\u212a')).toBe('k');
    expect(foldChar('ı')).toBe('ı');
    expect(foldChar('ß')).toBe('ß');
    expect(foldChar('Σ')).toBe(foldChar('ς'));
  });
});

describe('codec', () => {
  test('when chunks are written for a block, then they decode to the same occurrences, twice written or not', () => {
    const block = 3;
    const occurrences = [
      { seq: block * BLOCK_SIZE, positions: [0, 5, 300] },
      { seq: block * BLOCK_SIZE + 200, positions: [70_000] },
      { seq: block * BLOCK_SIZE + BLOCK_SIZE - 1, positions: [1, 2, 3] },
    ];
    const into = new Map<number, number[]>();
    decodeChunk(block, encodeChunk(block, occurrences), into);
    decodeChunk(block, encodeChunk(block, occurrences), into);
    expect([...into].map(([seq, positions]) => ({ seq, positions }))).toEqual(occurrences);
    const ids = ['65f000000000000000000001', '65f0000000000000000000ff'];
    expect(decodeIds(encodeIds(ids))).toEqual(ids);
  });
});

describe('matching', () => {
  const WORDS = [
    'Export',
    'export',
    'EXPORTS',
    'report',
    'porter',
    'Ölfeld',
    'ölfeld',
    'naïve',
    'naive',
    'a.b*c',
    '(x)',
    'exp ort',
    'süß',
    'ΣΟΦΙΑ',
    'σοφια',
    'ıi',
    'İstanbul',
    'istanbul',
  ];
  // A seeded generator, so a failure repeats.
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  const items = Array.from({ length: 300 }, () => ({
    title: `${pick()} ${pick()}`,
    content: `${pick()}${pick()} ${pick()}`,
    author: random() < 0.5 ? pick() : undefined,
    email: `${pick().toLowerCase()}@x.example`,
  }));

  function postingsOf(texts: typeof items): Posting[] {
    const byGram = new Map<string, Array<{ seq: number; positions: number[] }>>();
    texts.forEach((text, seq) => {
      for (const [gram, positions] of gramPositions(itemText(text)))
        byGram.set(gram, [...(byGram.get(gram) ?? []), { seq, positions }]);
    });
    // Items split over two blocks' worth of sequence numbers would need 4,096 items: one block here.
    return [...byGram].map(([gram, occurrences]) => ({ gram, block: 0, chunks: [encodeChunk(0, occurrences)] }));
  }

  test('when terms are matched through trigram positions, then the items are exactly those a case-insensitive substring regex finds', () => {
    const postings = postingsOf(items);
    const terms = [
      'export',
      'EXPORT',
      'xpo',
      'port',
      'rtex',
      'ort Ö',
      'ölf',
      'ÖLFELD',
      'naï',
      'a.b*c',
      '(x)',
      'p o',
      'exp ort',
      'SÜSS',
      'süß',
      'σοφ',
      'ΣΟΦΙΑ',
      'ıi ',
      'İst',
      'ist',
      'zzz',
      'x.e',
      'example',
      't@x',
    ];
    for (const term of terms) {
      const grams = termGrams(term)!;
      const pattern = new RegExp(escapeRegExp(term), 'iu');
      const expected = items.flatMap((item, seq) =>
        [item.title, item.content, item.author, item.email].some((field) => field !== undefined && pattern.test(field))
          ? [seq]
          : [],
      );
      expect([term, matchedSeqs(grams, postings, items.length)]).toEqual([term, expected]);
    }
  });

  test('when a term is shorter than three characters or holds the separator, then the index does not answer it', () => {
    expect(termGrams('ab')).toBeNull();
    expect(termGrams('a\u0000bc')).toBeNull();
    expect(termGrams('abc')).toEqual([{ gram: 'abc', offset: 0 }]);
  });

  test('when a term is longer than three characters, then its trigrams cover every character, the first and the last always among them', () => {
    expect(termGrams('export')).toEqual([
      { gram: 'exp', offset: 0 },
      { gram: 'ort', offset: 3 },
    ]);
    expect(termGrams('Billing')!.map(({ offset }) => offset)).toEqual([0, 3, 4]);
    expect(termGrams('login')!.map(({ gram }) => gram)).toEqual(['log', 'gin']);
    for (const length of [3, 4, 5, 6, 7, 8, 9, 10, 17]) {
      const covered = new Set(termGrams('x'.repeat(length))!.flatMap(({ offset }) => [offset, offset + 1, offset + 2]));
      expect([length, covered.size, Math.max(...covered)]).toEqual([length, length, length - 1]);
    }
  });

  test('when sequence numbers are at or beyond the indexed count, then they are not matched', () => {
    const postings = postingsOf(items);
    expect(matchedSeqs(termGrams('export')!, postings, 0)).toEqual([]);
  });
});
