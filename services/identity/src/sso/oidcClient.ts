import * as client from 'openid-client';

/** The longest wait for the identity provider (discovery, keys, token exchange), in seconds. */
const PROVIDER_TIMEOUT_S = 10;

export interface OidcClientSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** http:// allowed (a loopback provider in development: checked by checkProviderUrl before). */
  plainHttp: boolean;
}

/** What the provider's answer must match, kept server-side from the start of the sign-in. */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person as the provider's ID token names them. */
export interface OidcPerson {
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * The issuer's configuration from its discovery document. Read for each sign-in (sign-ins are rare, a few
 * milliseconds each), so a key the provider rotated in, or its new endpoints, are picked up at once.
 * Non-repudiation checks on: the ID token's signature is verified with the provider's JWKS even though it
 * came straight from the token endpoint.
 */
export async function discover(settings: OidcClientSettings): Promise<client.Configuration> {
  const config = await client.discovery(
    settings.issuer,
    settings.clientId,
    undefined,
    client.ClientSecretBasic(settings.clientSecret),
    {
      timeout: PROVIDER_TIMEOUT_S,
      ...(settings.plainHttp ? { execute: [client.allowInsecureRequests] } : {}),
    },
  );
  client.enableNonRepudiationChecks(config);
  return config;
}

/** Fresh random state, nonce and PKCE verifier for one sign-in. */
export const newChecks = (): OidcChecks => ({
  state: client.randomState(),
  nonce: client.randomNonce(),
  codeVerifier: client.randomPKCECodeVerifier(),
});

/** The provider's authorization address: code flow, PKCE (S256), state, nonce, the email as a hint. */
export async function authorizationUrl(
  config: client.Configuration,
  redirectUri: string,
  checks: OidcChecks,
  email: string,
): Promise<string> {
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      login_hint: email,
    })
    .toString();
}

/**
 * Exchanges the code of the callback for tokens and checks the ID token: signature (JWKS), iss, aud, exp,
 * iat, nonce, the state and the issuer of the answer; throws the library's error when any is wrong.
 */
export async function exchangeCode(
  config: client.Configuration,
  callbackUrl: URL,
  checks: OidcChecks,
): Promise<OidcPerson> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  return {
    email: typeof claims?.email === 'string' ? claims.email : null,
    emailVerified: claims?.email_verified === true,
    name: typeof claims?.name === 'string' ? claims.name : null,
  };
}

/** The provider's own words for a refused answer (error and description), when it sent one. */
export function providerRefusal(error: unknown): string | null {
  if (error instanceof client.AuthorizationResponseError)
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  return null;
}
