// The documents are in sso.graphql; `npm run codegen` types them against the admin API.
import type { SsoDomainFieldsFragment, SsoSettingsQuery } from '../../generated/graphql';

export {
  AddSsoDomainDocument as ADD_SSO_DOMAIN,
  FinishOidcSignInDocument as FINISH_OIDC_SIGN_IN,
  FinishSamlSignInDocument as FINISH_SAML_SIGN_IN,
  RemoveSsoConnectionDocument as REMOVE_SSO_CONNECTION,
  RemoveSsoDomainDocument as REMOVE_SSO_DOMAIN,
  SetOidcConnectionDocument as SET_OIDC_CONNECTION,
  SetSamlConnectionDocument as SET_SAML_CONNECTION,
  SetSsoRequiredDocument as SET_SSO_REQUIRED,
  SsoSettingsDocument as SSO_SETTINGS,
  StartSsoSignInDocument as START_SSO_SIGN_IN,
  VerifySsoDomainDocument as VERIFY_SSO_DOMAIN,
} from '../../generated/graphql';

export type SsoDomain = SsoDomainFieldsFragment;
export type SsoConnection = NonNullable<SsoSettingsQuery['ssoConnection']>;
