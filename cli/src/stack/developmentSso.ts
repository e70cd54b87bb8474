/**
 * `npm start` is for development: single sign-on may use an identity provider on this machine over plain
 * http (loopback only), and client secrets are sealed with a fixed key the CLI knows too. Every variable
 * can still be set in the environment; production sets its own SSO_SECRET_KEY.
 */
export const DEVELOPMENT_SSO_SECRET_KEY = '550de7e1550de7e1550de7e1550de7e1550de7e1550de7e1550de7e1550de7e1';

export function developmentSsoEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    SSO_SECRET_KEY: env.SSO_SECRET_KEY || DEVELOPMENT_SSO_SECRET_KEY,
    SSO_ALLOW_LOOPBACK_HTTP: env.SSO_ALLOW_LOOPBACK_HTTP || 'true',
  };
}
