// Single sign-on of organizations (docs/sso.md): its settings, its sign-in, its resolvers and its
// configuration; the rest of the service reaches it only through what is exported here.
export { ssoBindingOf } from './bindingCookie';
export { openSsoRepositories, type SsoRepositories } from './data';
export { checkDomain } from './emailDomain';
export { ssoPasswordPolicy } from './passwordPolicy';
export { ssoConfigSchema } from './ssoConfig';
export { createSsoResolvers, type SsoServices } from './ssoResolvers';
export { connectionView, domainView, SsoSettings, type OidcInput, type SsoDomainView } from './ssoSettings';
export { samlRoutes } from './samlRoutes';
export { OIDC_CALLBACK_PATH, SAML_ACS_PATH, SAML_METADATA_PATH, SsoSignIn } from './ssoSignIn';
