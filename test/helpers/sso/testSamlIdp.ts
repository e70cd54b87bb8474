import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';

export interface AssertionOptions {
  /** Who the assertion names (NameID and the email attribute). */
  email: string;
  audience?: string;
  recipient?: string;
  /** The end of the assertion's validity (one hour from now unless told). */
  notOnOrAfter?: Date;
  /** Changes the NameID and email after signing, as an attacker would. */
  tamperTo?: string;
  /** The assertion's ID (a fresh one unless told). */
  assertionId?: string;
  /** Answers this request id instead of the one in the request. */
  inResponseTo?: string;
}

/**
 * A SAML identity provider of the test's own: a key and a self-signed certificate made by openssl, its
 * metadata, and answers to our AuthnRequests whose assertions it signs with xml-crypto (enveloped,
 * exclusive canonicalization, RSA-SHA256), as Okta and Entra ID sign theirs.
 */
export class TestSamlIdp {
  readonly entityId = `https://idp-${randomBytes(4).toString('hex')}.test/saml`;
  readonly ssoUrl = `${this.entityId}/sso`;

  private constructor(
    private readonly key: string,
    private readonly cert: string,
  ) {}

  static create(): TestSamlIdp {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fi-saml-idp-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '2',
          '-subj',
          '/CN=test-idp',
          '-keyout',
          path.join(dir, 'key.pem'),
          '-out',
          path.join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      return new TestSamlIdp(
        readFileSync(path.join(dir, 'key.pem'), 'utf8'),
        readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private get certBody(): string {
    return this.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  }

  metadata(): string {
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${this.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${this.certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** The request our service sent (HTTP-Redirect binding): its id, its ACS and the RelayState to return. */
  readRequest(authorizeUrl: string): { requestId: string; acsUrl: string; audience: string; relayState: string } {
    const url = new URL(authorizeUrl);
    if (!authorizeUrl.startsWith(this.ssoUrl)) throw new Error(`not sent to this provider: ${authorizeUrl}`);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    const attribute = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
    return {
      requestId: attribute('ID'),
      acsUrl: attribute('AssertionConsumerServiceURL'),
      audience: /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '',
      relayState: url.searchParams.get('RelayState') ?? '',
    };
  }

  /** The form its page would post to our ACS: SAMLResponse (base64) and RelayState. */
  answer(authorizeUrl: string, options: AssertionOptions): { SAMLResponse: string; RelayState: string } {
    const request = this.readRequest(authorizeUrl);
    const now = new Date();
    const end = (options.notOnOrAfter ?? new Date(now.getTime() + 3_600_000)).toISOString();
    const issued = new Date(Math.min(now.getTime(), new Date(end).getTime() - 600_000)).toISOString();
    const inResponseTo = options.inResponseTo ?? request.requestId;
    const recipient = options.recipient ?? request.acsUrl;
    const assertionId = options.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
    const xml = `<samlp:Response ${NS} ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${issued}" Destination="${recipient}" InResponseTo="${inResponseTo}"><saml:Issuer>${this.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ${NS} ID="${assertionId}" Version="2.0" IssueInstant="${issued}"><saml:Issuer>${this.entityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${end}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${issued}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${options.audience ?? request.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_s${randomBytes(8).toString('hex')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${options.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion></samlp:Response>`;
    const signer = new SignedXml({
      privateKey: this.key,
      publicCert: this.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    signer.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signer.computeSignature(xml, {
      location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
    });
    let signed = signer.getSignedXml();
    if (options.tamperTo) signed = signed.split(options.email).join(options.tamperTo);
    return { SAMLResponse: Buffer.from(signed).toString('base64'), RelayState: request.relayState };
  }
}
