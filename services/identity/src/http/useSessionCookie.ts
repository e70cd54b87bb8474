import type { ApolloServerPlugin } from '@apollo/server';
import type { IdentityContext } from '../identityContext';

/**
 * Every answer carries the Set-Cookie of a sign-in or sign-out and is never cached. The CSRF check of a
 * mutation sent with a live session is the gateway's alone (gateway/src/admin/adminApi.ts): a browser
 * reaches this service only through the gateway's /admin/graphql, which checks every service's mutations
 * before calling any, with the answer this service gives it (`csrfValid` of /internal/verify-session).
 */
export function useSessionCookie(): ApolloServerPlugin<IdentityContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (contextValue.setCookie) response.http.headers.set('set-cookie', contextValue.setCookie);
          // Answers about a session are never cached by a browser or a proxy.
          response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}
