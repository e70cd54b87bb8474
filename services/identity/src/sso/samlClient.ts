import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import type { SamlIdp } from './samlMetadata';

/** Our side of SAML: one service provider for every organization, its ACS and entity id on the web origin. */
export interface SamlSp {
  entityId: string;
  acsUrl: string;
}

export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Claims Entra ID and Okta send the email and the name under, besides the NameID. */
const EMAIL_ATTRIBUTES = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['name', 'displayName', 'http://schemas.microsoft.com/identity/claims/displayname'];

/** The person an accepted assertion names, with what makes it single use. */
export interface SamlPerson {
  email: string | null;
  name: string | null;
  assertionId: string;
  recipient: string | null;
}

/**
 * A SAML client for one organization's identity provider: signed assertions required, its audience our
 * entity id, InResponseTo checked against `requestIds` (the one request of this sign-in), the timestamps
 * with a minute of clock skew. Recipient is checked by the caller (the library does not).
 */
export function samlClient(idp: SamlIdp, sp: SamlSp, requestIds: CacheProvider, ttlMs: number): SAML {
  return new SAML({
    entryPoint: idp.ssoUrl,
    idpIssuer: idp.entityId,
    idpCert: idp.certs,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: requestIds,
    requestIdExpirationPeriodMs: ttlMs,
    acceptedClockSkewMs: 60_000,
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
  });
}

/** Our metadata for identity providers: entity id, ACS (HTTP-POST), signed assertions wanted. */
export function spMetadataXml(sp: SamlSp): string {
  const saml = new SAML({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    idpCert: 'none',
    wantAssertionsSigned: true,
    identifierFormat: EMAIL_FORMAT,
  });
  return saml.generateServiceProviderMetadata(null);
}

const first = (value: unknown): string | null => {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' && one.trim() ? one.trim() : null;
};

/** The library's words where they do not say what was wrong: a bearer confirmation outside its time window. */
const CLEARER: Record<string, string> = {
  'No valid subject confirmation found among those available in the SAML assertion':
    'the assertion has expired or is not valid yet (SubjectConfirmationData NotBefore/NotOnOrAfter)',
};

/** Validates a posted SAMLResponse (signature, issuer, audience, timestamps, InResponseTo); throws when wrong. */
export async function acceptSamlResponse(saml: SAML, samlResponse: string): Promise<SamlPerson> {
  const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }).catch((error: unknown) => {
    const clearer = error instanceof Error ? CLEARER[error.message] : undefined;
    throw clearer ? new Error(clearer) : error;
  });
  if (!profile) throw new Error('the answer holds no assertion');
  const assertion = (profile.getAssertion?.() ?? {}) as {
    Assertion?: {
      $?: { ID?: string };
      Subject?: Array<{
        SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: { Recipient?: string } }> }>;
      }>;
    };
  };
  const assertionId = assertion.Assertion?.$?.ID;
  if (!assertionId) throw new Error('the assertion has no ID');
  const nameIdEmail = profile.nameIDFormat === EMAIL_FORMAT || profile.nameID?.includes('@') ? profile.nameID : null;
  return {
    email: EMAIL_ATTRIBUTES.map((name) => first(profile[name])).find(Boolean) ?? nameIdEmail ?? null,
    name: NAME_ATTRIBUTES.map((name) => first(profile[name])).find(Boolean) ?? null,
    assertionId,
    recipient:
      assertion.Assertion?.Subject?.[0]?.SubjectConfirmation?.[0]?.SubjectConfirmationData?.[0]?.$?.Recipient ?? null,
  };
}
