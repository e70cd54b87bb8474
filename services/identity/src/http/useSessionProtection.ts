import type { ApolloServerPlugin } from '@apollo/server';
import { withHttpStatus } from '@fi/shared';
import { csrfRequired } from '../domain/identityErrors';
import type { IdentityContext } from '../identityContext';

/**
 * CSRF protection of every state-changing request made with a session cookie: a mutation sent with a
 * live session must carry that session's CSRF token, which a page of another origin cannot read. The
 * response also carries the Set-Cookie of a sign-in or sign-out.
 */
export function useSessionProtection(): ApolloServerPlugin<IdentityContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          // A refusal is an ordinary GraphQL error result (Apollo would answer an error thrown here with 500).
          if (operation?.operation === 'mutation' && contextValue.session && !contextValue.csrfValid)
            throw withHttpStatus(csrfRequired(), 200);
        },
        async willSendResponse({ response, contextValue }) {
          if (contextValue.setCookie) response.http.headers.set('set-cookie', contextValue.setCookie);
          // Answers about a session are never cached by a browser or a proxy.
          response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}
