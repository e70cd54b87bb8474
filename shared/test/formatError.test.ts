import { GraphQLError } from 'graphql';
import { createFormatError, errorKind } from '../src/formatError';

const format = createFormatError({ debug: false, hideSuggestions: true });

describe('what a client sees of an error', () => {
  test('when the error is one of the API codes, then it passes with its extensions', () => {
    const formatted = format(
      { message: 'take must be between 0 and 100 (got 101)', extensions: { code: 'BAD_REQUEST', argument: 'take' } },
      new GraphQLError('x'),
    );
    expect(formatted).toEqual({
      message: 'take must be between 0 and 100 (got 101)',
      extensions: { code: 'BAD_REQUEST', argument: 'take' },
    });
  });

  test('when Apollo rejects the document, then its own codes become BAD_REQUEST and hints are removed', () => {
    const formatted = format(
      {
        message: 'Cannot query field "totl" on type "FeedbackItemList". Did you mean "total"?',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
      new GraphQLError('x'),
    );
    expect(formatted).toEqual({
      message: 'Cannot query field "totl" on type "FeedbackItemList".',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  test('when an omitted apiKey fails validation, then it is UNAUTHENTICATED "Invalid API key"', () => {
    const message = 'Field "feedbackItems" argument "apiKey" of type "String!" is required, but it was not provided.';
    expect(
      format({ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, new GraphQLError(message)),
    ).toMatchObject({
      message: 'Invalid API key',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  test('when the database is unreachable, then SERVICE_UNAVAILABLE without detail', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), {
      name: 'MongoServerSelectionError',
    });
    const error = new GraphQLError('connect ECONNREFUSED', { originalError: cause });
    expect(errorKind(error.message, undefined, error)).toBe('unavailable');
    expect(format({ message: error.message }, error)).toEqual({
      message: 'Service temporarily unavailable; retry shortly',
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  });

  test.each([
    ['no pooled connection came free', 'Timed out during connection checkout', { name: 'MongoWaitQueueTimeoutError' }],
    ['the server could not be selected', 'Timed out during server selection', { name: 'MongoServerSelectionError' }],
  ])(
    'when %s within the wait, then SERVICE_UNAVAILABLE, not QUERY_TIMEOUT: the database, not the request, is at fault',
    (_, message, cause) => {
      const timeout = Object.assign(new Error(message), {
        name: 'MongoOperationTimeoutError',
        cause: Object.assign(new Error('x'), cause),
      });
      const error = new GraphQLError(message, { originalError: timeout });
      expect(errorKind(error.message, undefined, error)).toBe('unavailable');
    },
  );

  test.each([
    ['the server stopped it (MaxTimeMSExpired)', { name: 'MongoServerError', code: 50 }],
    ['the driver gave up first', { name: 'MongoOperationTimeoutError' }],
  ])('when a database operation hit its time limit because %s, then QUERY_TIMEOUT naming the limit', (_, fields) => {
    const error = new GraphQLError('operation exceeded time limit', {
      originalError: Object.assign(new Error('operation exceeded time limit'), fields),
    });
    expect(
      createFormatError({ debug: false, maxTimeMs: 8_000 })({ message: error.message, path: ['contactItems'] }, error),
    ).toEqual({
      message:
        'The query took longer than 8000 ms and was stopped; narrow it (a shorter search, more filters, a smaller page) or retry later',
      path: ['contactItems'],
      extensions: { code: 'QUERY_TIMEOUT', maxTimeMs: 8_000 },
    });
  });

  test('when anything else fails, then INTERNAL_SERVER_ERROR with a generic message, unless debugging', () => {
    const error = new GraphQLError('Cannot read properties of undefined', { extensions: { stacktrace: ['at x'] } });
    const formatted = { message: error.message, path: ['feedbackItems'], extensions: { stacktrace: ['at x'] } };
    expect(format(formatted, error)).toEqual({
      message: 'Internal server error',
      path: ['feedbackItems'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(createFormatError({ debug: true })(formatted, error)).toMatchObject({
      message: 'Cannot read properties of undefined',
      extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at x'] },
    });
  });
});
