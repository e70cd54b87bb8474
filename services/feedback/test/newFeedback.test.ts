import { rejection } from './rejection';
import { parseIdempotencyKey } from '../src/core/domain/addFeedback';
import { FEEDBACK_LIMITS, validateNewFeedback } from '../src/core/domain/newFeedback';

const valid = { source: 'api', title: 'Slow export', content: 'The CSV export takes minutes.' };

describe('a new feedback item', () => {
  test('when only the required fields are given, then it keeps them and adds no optional field', () => {
    expect(validateNewFeedback(valid)).toEqual(valid);
  });

  test('when optional fields are given, then the author is trimmed, the email kept and sentiment and metadata checked', () => {
    const item = validateNewFeedback({
      ...valid,
      author: '  Ada  ',
      email: 'ada@example.com',
      sentiment: 'negative',
      metadata: { plan: 'pro' },
    });
    expect(item).toEqual({
      ...valid,
      author: 'Ada',
      email: 'ada@example.com',
      sentiment: 'negative',
      metadata: { plan: 'pro' },
    });
  });

  test('when the author is blank or explicit nulls are sent, then those fields are left out', () => {
    expect(validateNewFeedback({ ...valid, author: '   ', email: null, sentiment: null, metadata: null })).toEqual(
      valid,
    );
  });

  test.each([
    ['title', { ...valid, title: '   ' }, /title must not be blank/],
    ['content', { ...valid, content: '' }, /content must not be blank/],
    [
      'source',
      { ...valid, source: 'x'.repeat(FEEDBACK_LIMITS.source + 1) },
      /source must be at most 100 characters \(got 101\)/,
    ],
    ['author', { ...valid, author: 'a'.repeat(FEEDBACK_LIMITS.author + 1) }, /author must be at most 200 characters/],
    ['email', { ...valid, email: 'not-an-email' }, /email must be a valid email address/],
    [
      'sentiment',
      { ...valid, sentiment: 'angry' },
      /sentiment must be one of positive, neutral, negative \(got "angry"\)/,
    ],
    ['metadata', { ...valid, metadata: { $where: 'x' } }, /metadata keys must not start with "\$"/],
  ])('when %s breaks its rule, then BAD_REQUEST names that argument', (argument, input, message) => {
    const error = rejection(() => validateNewFeedback(input));
    expect(error.message).toMatch(message);
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', argument });
  });

  test('when a text is exactly at its limit, then it is accepted', () => {
    expect(validateNewFeedback({ ...valid, title: 't'.repeat(FEEDBACK_LIMITS.title) }).title).toHaveLength(
      FEEDBACK_LIMITS.title,
    );
  });
});

describe('an Idempotency-Key header', () => {
  test('when absent, then there is no key; when repeated, then the first counts', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey(['first-key', 'second-key'])).toBe('first-key');
  });

  test.each([[''], ['has space'], ['é'], ['k'.repeat(256)]])(
    'when it is %j, then BAD_REQUEST names the header',
    (key) => {
      expect(rejection(() => parseIdempotencyKey(key)).extensions).toMatchObject({
        code: 'BAD_REQUEST',
        argument: 'Idempotency-Key',
      });
    },
  );

  test('when it is 255 visible ASCII characters, then it is the key', () => {
    const key = '!'.repeat(100) + '~'.repeat(155);
    expect(parseIdempotencyKey(key)).toBe(key);
  });
});
