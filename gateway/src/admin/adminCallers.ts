import { IDENTITY_HEADER, REQUEST_ID_HEADER, signIdentity, type SigningKeyring } from '@fi/shared';
import type { SubgraphCaller } from '../subgraphDataSource';
import type { AdminContext } from './adminContext';

/**
 * The identity service owns sessions: it is given the page's cookie, CSRF token and address as they came,
 * answers by them (sign-in, members, keys) and may set the session cookie, which goes back to the page.
 */
export const sessionCaller: SubgraphCaller<AdminContext> = {
  headers: (context) => ({ ...context.pageHeaders, [REQUEST_ID_HEADER]: context.requestId }),
  answered(context, headers) {
    const setCookie = headers['set-cookie'];
    if (setCookie !== undefined)
      context.setCookie = Array.isArray(setCookie) ? setCookie[setCookie.length - 1] : setCookie;
  },
};

/**
 * A service's admin schema never sees the session: it is told the signed-in member (kind `member`: id,
 * organization, role) in a freshly signed identity, as the public API's subgraphs are told a key, and
 * answers by it (no member: "Sign in first"; a viewer's write: FORBIDDEN).
 */
export function memberCaller(signingKeys: SigningKeyring, identityTtlMs: number): SubgraphCaller<AdminContext> {
  return {
    async headers(context) {
      const { principal } = await context.session();
      return {
        [REQUEST_ID_HEADER]: context.requestId,
        [IDENTITY_HEADER]: signIdentity(signingKeys, principal ? [principal] : [], identityTtlMs),
      };
    },
  };
}
