import { GraphQLError } from 'graphql';
import { jsonNestsDeeperThan, MAX_BODY_DEPTH } from '../src/http/body';
import { requestIdFrom } from '../src/http/requestId';
import { validateMetadata } from '../src/metadata';
import { RecordRules } from '../src/rules/recordRules';
import { requireMaxLength } from '../src/textArguments';

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('the nesting of a request body', () => {
  test('when it is within the limit, then it passes, whatever brackets its strings hold', () => {
    expect(jsonNestsDeeperThan(nested(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ query: '{'.repeat(500), escaped: '\\"{{{{' }), MAX_BODY_DEPTH)).toBe(
      false,
    );
  });

  test('when it is one level deeper, or thousands, then it is found without recursion', () => {
    expect(jsonNestsDeeperThan(nested(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH)).toBe(true);
    expect(jsonNestsDeeperThan(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, MAX_BODY_DEPTH)).toBe(true);
  });
});

describe('a request id sent by the client', () => {
  test.each(['req-123', 'fault-7', '0f8fad5b-d9cb-469f-a165-70867728950e', 'trace.span:42'])(
    'when it is %s, then it is kept',
    (id) => {
      expect(requestIdFrom(id)).toBe(id);
    },
  );

  test.each([
    ['an API key', `fik_${'A'.repeat(43)}`],
    ['a line break', 'a\nforged log line'],
    ['too long', 'x'.repeat(65)],
    ['empty', ''],
  ])('when it is %s, then a fresh id replaces it', (_, id) => {
    const used = requestIdFrom(id);
    expect(used).not.toBe(id);
    expect(used).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('metadata keys', () => {
  test.each(['__proto__', 'constructor', 'prototype'])(
    'when a key is %s, at any depth, then BAD_REQUEST names it',
    (key) => {
      for (const value of [JSON.parse(`{"${key}": {"admin": true}}`), JSON.parse(`{"a": {"${key}": 1}}`)]) {
        expect(() => validateMetadata(value)).toThrow(
          new GraphQLError(`metadata keys must not be __proto__, constructor, prototype (got "${key}")`),
        );
      }
    },
  );
});

describe('text fields', () => {
  const title = (value: string, multiline = false) => {
    const rules = new RecordRules({ title: value });
    const text = rules.text('title', { max: 5, multiline });
    return { text, problem: rules.problems[0]?.message };
  };

  test('when a title holds 5 emoji, then it has 5 characters, within a limit of 5', () => {
    expect(title('😀😀😀😀😀')).toEqual({ text: '😀😀😀😀😀', problem: undefined });
    expect(title('😀😀😀😀😀😀').problem).toBe('must be at most 5 characters (got 6)');
  });

  test.each([
    ['NUL', 'a\u0000b'],
    ['a line break', 'a\nb'],
    ['a bidi override', 'a\u202Eb'],
    ['an isolate', 'a\u2066b'],
  ])('when a single-line field holds %s, then it is refused', (_, value) => {
    expect(title(value).problem).toBe('must not contain control characters or bidirectional overrides');
  });

  test('when multi-line text holds line breaks and tabs, then it passes; NUL does not', () => {
    expect(title('a\n\tb', true).problem).toBeUndefined();
    expect(title('a\u0000b', true).problem).toBe('must not contain control characters other than tabs and line breaks');
  });

  test('when text holds a lone surrogate, then it is refused', () => {
    expect(title('a\uD800b').problem).toBe('must be valid Unicode text (it holds half of a character)');
    expect(title('a\uD800b', true).problem).toBe('must be valid Unicode text (it holds half of a character)');
  });

  test('when an argument holds 200 emoji, then it is within a limit of 200 characters', () => {
    expect(requireMaxLength('search', '😀'.repeat(200), 200)).toHaveLength(400);
    expect(() => requireMaxLength('search', '😀'.repeat(201), 200)).toThrow(
      'search must be at most 200 characters (got 201)',
    );
  });
});

describe('tags', () => {
  const tags = (value: unknown) => {
    const rules = new RecordRules({ tags: value });
    const kept = rules.tags('tags', { maxCount: 3, max: 5 });
    return { kept, problems: rules.problems };
  };

  test('when tags are within the limits, then they are kept trimmed and blank ones are left out', () => {
    expect(tags([' vip ', '', '😀😀😀😀😀'])).toEqual({ kept: ['vip', '😀😀😀😀😀'], problems: [] });
  });

  test('when there are more tags than the limit, then the field is refused with the limit', () => {
    expect(tags(['a', 'b', 'c', 'd']).problems).toEqual([
      { field: 'tags', message: 'must hold at most 3 tags (got 4)', max: 3 },
    ]);
  });

  test.each([
    ['too long', 'abcdef', 'item 2 must be at most 5 characters (got 6)'],
    ['NUL', 'a\u0000b', 'item 2 must not contain control characters or bidirectional overrides'],
    ['a line break', 'a\nb', 'item 2 must not contain control characters or bidirectional overrides'],
    ['a bidi override', 'a\u202Eb', 'item 2 must not contain control characters or bidirectional overrides'],
  ])('when a tag is %s, then the field is refused as a one-line field is, naming the tag', (_, tag, message) => {
    expect(tags(['ok', tag]).problems).toEqual([expect.objectContaining({ field: 'tags', message })]);
  });
});
