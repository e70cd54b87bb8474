import { GraphQLError } from 'graphql';

/** The one error vocabulary of the API: every error a client sees carries one of these codes. */
export const ErrorCode = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  BAD_REQUEST: 'BAD_REQUEST',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  /** The database stopped an operation at its time limit: the request asked for too much work. */
  QUERY_TIMEOUT: 'QUERY_TIMEOUT',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const INVALID_API_KEY_MESSAGE = 'Invalid API key';

export function appError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

/**
 * Makes an error without capturing a stack: for errors that are expected answers under load (a refusal
 * of a busy organization), which come by the hundred in one response and say nothing about the code.
 * Capturing and formatting their stacks (with source maps under tsx) cost the feedback service more than
 * a fifth of its time while one organization's nested reads were refused in a loop.
 */
export function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export const badRequest = (message: string, extensions?: Record<string, unknown>): GraphQLError =>
  appError(ErrorCode.BAD_REQUEST, message, extensions);

export const unauthenticated = (): GraphQLError => appError(ErrorCode.UNAUTHENTICATED, INVALID_API_KEY_MESSAGE);

export const forbidden = (message: string): GraphQLError => appError(ErrorCode.FORBIDDEN, message);

export const notFound = (message: string): GraphQLError => appError(ErrorCode.NOT_FOUND, message);

export function isAppErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.values<string>(ErrorCode).includes(code);
}

/**
 * Apollo answers an error thrown while building the request context with HTTP 500 unless the error says
 * otherwise; this sets the status (and headers) the client should get.
 */
export function withHttpStatus(
  error: GraphQLError,
  status: number,
  headers: Record<string, string> = {},
): GraphQLError {
  const httpHeaders = new Map(Object.entries(headers));
  return new GraphQLError(error.message, {
    extensions: { ...error.extensions, http: { status, headers: httpHeaders } },
  });
}
