import { badRequest } from '@fi/shared';
import { parseStringPromise, processors } from 'xml2js';

/** What an identity provider's SAML metadata tells us: who it is, where to send people, its signing keys. */
export interface SamlIdp {
  entityId: string;
  /** Its SingleSignOnService of the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Its signing certificates (base64 DER), any of which may sign an assertion (rotation). */
  certs: string[];
}

const MAX_METADATA_CHARS = 500_000;
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

interface Element {
  $?: Record<string, string>;
  [child: string]: unknown;
}

const children = (element: Element | undefined, name: string): Element[] =>
  (Array.isArray(element?.[name]) ? element[name] : []) as Element[];
const textOf = (value: unknown): string =>
  (typeof value === 'string'
    ? value
    : typeof (value as { _?: unknown })?._ === 'string'
      ? (value as { _: string })._
      : ''
  ).replace(/\s+/g, '');

const refuse = (problem: string) => badRequest(`The SAML metadata ${problem}`, { argument: 'metadata' });

/**
 * Reads the metadata XML (an EntityDescriptor with an IDPSSODescriptor), element names without their
 * namespace prefixes; BAD_REQUEST naming what is missing.
 */
export async function readIdpMetadata(xml: string): Promise<SamlIdp> {
  if (xml.length > MAX_METADATA_CHARS) throw refuse(`is larger than ${MAX_METADATA_CHARS} characters`);
  let doc: { EntityDescriptor?: Element };
  try {
    doc = (await parseStringPromise(xml, { tagNameProcessors: [processors.stripPrefix] })) as typeof doc;
  } catch {
    throw refuse('is not well-formed XML');
  }
  const entity = doc?.EntityDescriptor;
  const entityId = entity?.$?.entityID;
  if (!entityId) throw refuse('has no EntityDescriptor with an entityID');
  const [idp] = children(entity, 'IDPSSODescriptor');
  const ssoUrl = children(idp, 'SingleSignOnService').find((service) => service.$?.Binding === REDIRECT_BINDING)?.$
    ?.Location;
  if (!ssoUrl) throw refuse('has no SingleSignOnService of the HTTP-Redirect binding');
  const certs = children(idp, 'KeyDescriptor')
    .filter((key) => !key.$?.use || key.$.use === 'signing')
    .flatMap((key) => children(key, 'KeyInfo'))
    .flatMap((info) => children(info, 'X509Data'))
    .flatMap((data) => (data.X509Certificate as unknown[] | undefined) ?? [])
    .map(textOf)
    .filter(Boolean);
  if (certs.length === 0) throw refuse('has no signing certificate (KeyDescriptor use="signing")');
  return { entityId, ssoUrl, certs };
}
