import { Client, cacheExchange, fetchExchange } from '@urql/core';

/**
 * The admin API (sessions, members, keys, contacts, accounts: each answered by the service that owns it),
 * reached through the gateway on this page's own origin.
 */
export const ADMIN_GRAPHQL_PATH = '/admin/graphql';

// The CSRF token of the current session: the service refuses any mutation without it. It lives in
// memory only (never in storage a script of another origin could read) and comes back with `me`.
let csrfToken = '';

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export const adminClient = new Client({
  url: ADMIN_GRAPHQL_PATH,
  exchanges: [cacheExchange, fetchExchange],
  // The admin endpoint takes POST with JSON only.
  preferGetMethod: false,
  requestPolicy: 'cache-and-network',
  fetchOptions: (): RequestInit => ({
    credentials: 'same-origin',
    headers: csrfToken ? { 'x-csrf-token': csrfToken } : {},
  }),
});
