import { unavailableHttpError, type Logger, type RouteHandler } from '@fi/shared';
import { identityPassThrough } from '../auth/identityPassThrough';

/** SAML's public addresses on the web origin (docs/sso.md), answered by the identity service. */
export const SAML_METADATA_PATH = '/auth/saml/metadata';
export const SAML_ACS_PATH = '/auth/saml/acs';

/**
 * Forwards our SAML metadata (GET) and the identity provider's POST to the assertion consumer to the
 * identity service, which checks the assertion and answers with the redirect to the completion page. Only
 * the form's headers go on.
 */
export function samlProxyRoutes(options: {
  identityUrl: string;
  timeoutMs: number;
  trustProxy: boolean;
  logger: Logger;
}): { get: Record<string, RouteHandler>; post: Record<string, RouteHandler> } {
  const forward = (path: string) =>
    identityPassThrough(
      {
        ...options,
        requestHeaders: ['content-type', 'content-length'],
        responseHeaders: ['content-type', 'location', 'cache-control'],
        unavailable: (_, error) => {
          options.logger.warn({ err: error }, 'SAML: the identity service did not answer');
          throw unavailableHttpError('The identity service is unavailable; retry shortly', { service: 'identity' });
        },
      },
      path,
    );
  return {
    get: { [SAML_METADATA_PATH]: forward(SAML_METADATA_PATH) },
    post: { [SAML_ACS_PATH]: forward(SAML_ACS_PATH) },
  };
}
