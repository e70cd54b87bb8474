import type { ApolloServerPlugin } from '@apollo/server';
import { ErrorCode } from './errors';
import { errorKind } from './formatError';
import type { Logger } from './logger';

const NEEDS_A_TRACE: ReadonlySet<unknown> = new Set([
  ErrorCode.INTERNAL_SERVER_ERROR,
  ErrorCode.SERVICE_UNAVAILABLE,
  ErrorCode.QUERY_TIMEOUT,
]);

/**
 * Logs what the client is not told: the detail of an internal error, and which dependency was
 * unreachable, on the request's own log line (with its request id). Errors the client cannot fix by
 * itself carry that request id, so a support request can quote the one id that finds the detail in
 * every service's log.
 */
export function useErrorReporting<C extends { requestId: string; logger: Logger }>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const kind = errorKind(error.message, error.extensions?.code, error);
            if (kind === 'internal') contextValue.logger.error({ err: error.originalError ?? error }, 'internal error');
            else if (kind === 'unavailable')
              contextValue.logger.warn({ err: error.originalError ?? error }, 'dependency unavailable');
            else if (kind === 'timeout')
              contextValue.logger.warn(
                { err: error.originalError ?? error },
                'database operation stopped at its time limit',
              );
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const errors = response.body.singleResult.errors;
          if (!errors?.some((error) => NEEDS_A_TRACE.has(error.extensions?.code))) return;
          response.body.singleResult.errors = errors.map((error) =>
            NEEDS_A_TRACE.has(error.extensions?.code)
              ? { ...error, extensions: { ...error.extensions, requestId: contextValue.requestId } }
              : error,
          );
        },
      };
    },
  };
}
