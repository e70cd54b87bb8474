import type { CombinedError } from '@urql/core';

/** What a person reads when a request fails: the service's own message, never a raw error. */
export function errorInWords(error: CombinedError): string {
  const first = error.graphQLErrors[0];
  if (first) {
    const code = first.extensions?.code;
    if (code === 'INTERNAL_SERVER_ERROR') return 'Something went wrong on our side. Please try again in a moment.';
    return first.message;
  }
  if (error.response?.status === 503) return 'The service is unavailable right now. Please try again in a moment.';
  return 'Cannot reach the server. Check your connection and try again.';
}

/** True when the answer says the session has ended, so the page should go back to sign-in. */
export function isSignedOut(error: CombinedError | undefined): boolean {
  return Boolean(error?.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED'));
}
