import { rejection } from './rejection';
import { decodeCursor, encodeCursor } from '../src/core/model/cursor';
import { TEXT_ARGUMENT_MAX } from '@fi/shared';
import { parseFeedbackListArgs } from '../src/core/domain/feedbackListQuery';
import { lastInteraction } from '../src/links/lastInteraction';

const position = { createdAt: new Date('2026-03-01T10:00:00.000Z'), id: '65f0c0ffee0000000000abcd' };

describe('a list cursor', () => {
  test('when a position is encoded, then decoding gives it back', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  test('when any character of a cursor is changed, then it is refused with BAD_REQUEST on `after`', () => {
    const cursor = encodeCursor(position);
    for (const index of [0, 5, cursor.length - 1]) {
      const edited = cursor.slice(0, index) + (cursor[index] === 'A' ? 'B' : 'A') + cursor.slice(index + 1);
      expect(rejection(() => decodeCursor(edited)).extensions).toMatchObject({
        code: 'BAD_REQUEST',
        argument: 'after',
      });
    }
    expect(() => decodeCursor(cursor.slice(1))).toThrow(/after is not a valid cursor/);
  });
});

describe('the arguments of a feedback list', () => {
  test('when none are given, then the default page applies and nothing is filtered', () => {
    expect(parseFeedbackListArgs({})).toEqual({ page: { skip: 0, take: 50 } });
  });

  test('when filters are given, then they are kept (search trimmed) and the cursor decoded', () => {
    const after = encodeCursor(position);
    const publishedAfter = new Date('2026-01-01T00:00:00Z');
    const query = parseFeedbackListArgs({
      take: 10,
      source: 'api',
      status: 'read',
      sentiment: 'neutral',
      search: '  slow ',
      publishedAfter,
      after,
    });
    expect(query).toEqual({
      page: { skip: 0, take: 10 },
      source: 'api',
      status: 'read',
      sentiment: 'neutral',
      search: 'slow',
      publishedAfter,
      after: position,
    });
  });

  test.each([
    ['status', { status: 'done' }, /status must be one of unread, read, archived/],
    ['search', { search: 's'.repeat(TEXT_ARGUMENT_MAX.search + 1) }, /search must be at most 200 characters/],
    ['after', { skip: 5, after: encodeCursor(position) }, /after cannot be combined with skip/],
    ['take', { take: 101 }, /take must be between 0 and 100/],
    [
      'publishedBefore',
      { publishedAfter: new Date('2026-02-01T00:00:00Z'), publishedBefore: new Date('2026-02-01T00:00:00Z') },
      /publishedAfter must be earlier than publishedBefore/,
    ],
  ])('when %s is wrong, then BAD_REQUEST names it', (argument, args, message) => {
    const error = rejection(() => parseFeedbackListArgs(args));
    expect(error.message).toMatch(message);
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', argument });
  });
});

describe("a contact's last interaction", () => {
  const older = new Date('2026-01-01T00:00:00Z');
  const newer = new Date('2026-02-01T00:00:00Z');

  test('when both are known, then the later one counts, whichever it is', () => {
    expect(lastInteraction(older.toISOString(), newer)).toEqual(newer);
    expect(lastInteraction(newer.toISOString(), older)).toEqual(newer);
  });

  test('when only one is known, then it is that one; when neither, then null', () => {
    expect(lastInteraction(null, newer)).toEqual(newer);
    expect(lastInteraction(older, null)).toEqual(older);
    expect(lastInteraction(undefined, null)).toBeNull();
  });
});
