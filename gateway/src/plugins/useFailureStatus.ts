import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ErrorCode, onlyUnavailable, UNAVAILABLE_HTTP } from '@fi/shared';

/**
 * The HTTP status of a request that went through execution and got nothing: 503 with Retry-After when
 * every error is an unavailable dependency (the rule and its wait live in shared's `unavailable`), 429
 * with the longest Retry-After when every error is a subgraph's bulkhead refusing the organization. A
 * partial answer stays 200: the client has data to use.
 */
export function useFailureStatus<C extends BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          const nothingAnswered = !data || Object.values(data).every((value) => value === null);
          if (!nothingAnswered || !errors?.length) return;
          if (onlyUnavailable(errors)) {
            response.http.status = UNAVAILABLE_HTTP.status;
            for (const [name, value] of Object.entries(UNAVAILABLE_HTTP.headers))
              response.http.headers.set(name, value);
          } else if (errors.every((error) => error.extensions?.code === ErrorCode.RATE_LIMITED)) {
            response.http.status = 429;
            const retryAfter = Math.max(1, ...errors.map((error) => Number(error.extensions?.retryAfter) || 1));
            response.http.headers.set('retry-after', String(retryAfter));
          }
        },
      };
    },
  };
}
