import { randomBytes } from 'node:crypto';
import { appError, badRequest, ErrorCode, notFound, type Role, type SecretBox } from '@fi/shared';
import type { IdentityRepositories } from '../data/repositories';
import { actorAddress, actorName, type Actor } from '../domain/actor';
import type { AuditAction } from '../data/auditRepository';
import type { SsoConnection, SsoDomain, SsoRepositories } from './data';
import { domainProven, verificationRecord } from './domainProof';
import { checkDomain } from './emailDomain';
import { checkProviderUrl, isPlainHttp } from './issuerUrl';
import { discover } from './oidcClient';
import { readIdpMetadata } from './samlMetadata';
import { requireOwner, ssoNotConfigured } from './ssoErrors';

const MAX_CLIENT_FIELD = 1_000;

export interface SamlInput {
  /** The identity provider's metadata XML, or null to fetch it from metadataUrl. */
  metadataXml: string | null;
  metadataUrl: string | null;
  defaultRole: Role;
}

export interface OidcInput {
  issuer: string;
  clientId: string;
  /** Null keeps the stored secret (changing only the issuer's client id or the default role). */
  clientSecret: string | null;
  defaultRole: Role;
}

/** A domain as the API and the CLI show it. */
export interface SsoDomainView {
  domain: string;
  verified: boolean;
  ssoRequired: boolean;
  verificationName: string;
  verificationValue: string;
}

export const domainView = (domain: SsoDomain): SsoDomainView => {
  const record = verificationRecord(domain.domain, domain.token);
  return {
    domain: domain.domain,
    verified: domain.verifiedAt !== null,
    ssoRequired: domain.ssoRequired,
    verificationName: record.name,
    verificationValue: record.value,
  };
};

/**
 * A connection as the API and the CLI show it (never the client secret), with the address the identity
 * provider sends people back to: the OIDC callback, or the SAML assertion consumer.
 */
export const connectionView = (
  connection: SsoConnection,
  sp: { oidcCallback: string; acsUrl: string; entityId: string },
) => ({
  protocol: connection.protocol,
  issuer: connection.oidc?.issuer ?? null,
  clientId: connection.oidc?.clientId ?? null,
  idpEntityId: connection.saml?.entityId ?? null,
  idpMetadataUrl: connection.saml?.metadataUrl ?? null,
  spEntityId: sp.entityId,
  defaultRole: connection.defaultRole,
  redirectUri: connection.saml ? sp.acsUrl : sp.oidcCallback,
  updatedAt: connection.updatedAt,
  updatedBy: connection.updatedBy,
});

/**
 * An organization's single sign-on settings: its connection, its email domains and whether SSO is
 * required for them. Owners change them in the web application (a domain proven by a DNS TXT record);
 * an operator at a shell (the CLI) may also mark a domain verified, trusted as with every other command.
 */
export class SsoSettings {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly sso: SsoRepositories,
    private readonly secrets: SecretBox | null,
    private readonly options: { allowLoopbackHttp: boolean; dnsServers: string[] },
  ) {}

  async connection(actor: Actor, orgId: string): Promise<SsoConnection | null> {
    this.allowed(actor);
    return this.sso.connections.find(orgId);
  }

  async domains(actor: Actor, orgId: string): Promise<SsoDomainView[]> {
    this.allowed(actor);
    return (await this.sso.domains.list(orgId)).map(domainView);
  }

  /** Checks the issuer's discovery document before storing anything: a typo is refused now, not at sign-in. */
  async setOidc(actor: Actor, orgId: string, input: OidcInput): Promise<SsoConnection> {
    this.allowed(actor);
    if (!this.secrets) throw ssoNotConfigured();
    if (!(await this.repositories.organizations.findById(orgId))) throw notFound(`Organization ${orgId} not found`);
    const issuer = checkProviderUrl(input.issuer, this.options.allowLoopbackHttp);
    const clientId = input.clientId.trim();
    if (!clientId || clientId.length > MAX_CLIENT_FIELD)
      throw badRequest(`The client id must have 1 to ${MAX_CLIENT_FIELD} characters`, { argument: 'clientId' });
    this.checkDefaultRole(input.defaultRole);
    const existing = await this.sso.connections.find(orgId);
    const secret =
      input.clientSecret ??
      (existing?.oidc && existing.oidc.clientId === clientId
        ? this.secrets.open(existing.oidc.clientSecret, orgId)
        : null);
    if (!secret || secret.length > MAX_CLIENT_FIELD)
      throw badRequest(`The client secret must have 1 to ${MAX_CLIENT_FIELD} characters`, { argument: 'clientSecret' });
    try {
      await discover({ issuer, clientId, clientSecret: secret, plainHttp: isPlainHttp(issuer) });
    } catch (error) {
      throw badRequest(
        `The issuer's discovery document (${issuer.origin}/.well-known/openid-configuration) could not be read: ${(error as Error).message}`,
        { argument: 'issuer' },
      );
    }
    const connection: SsoConnection = {
      orgId,
      protocol: 'oidc',
      oidc: { issuer: issuer.toString().replace(/\/$/, ''), clientId, clientSecret: this.secrets.seal(secret, orgId) },
      saml: null,
      defaultRole: input.defaultRole,
      updatedAt: new Date(),
      updatedBy: actorName(actor),
    };
    await this.sso.connections.save(connection);
    await this.audit(actor, orgId, 'sso.connection_set', `oidc ${connection.oidc?.issuer} (${clientId})`);
    return connection;
  }

  /** Sets (or replaces) a SAML connection from the provider's metadata (given, or fetched from its URL now). */
  async setSaml(actor: Actor, orgId: string, input: SamlInput): Promise<SsoConnection> {
    this.allowed(actor);
    if (!(await this.repositories.organizations.findById(orgId))) throw notFound(`Organization ${orgId} not found`);
    this.checkDefaultRole(input.defaultRole);
    const metadataUrl = input.metadataUrl
      ? checkProviderUrl(input.metadataUrl, this.options.allowLoopbackHttp, 'metadataUrl')
      : null;
    if (!input.metadataXml && !metadataUrl)
      throw badRequest('Give the SAML metadata XML or its URL', { argument: 'metadataXml' });
    const metadataXml = input.metadataXml ?? (await fetchMetadata(metadataUrl as URL));
    const idp = await readIdpMetadata(metadataXml);
    const connection: SsoConnection = {
      orgId,
      protocol: 'saml',
      oidc: null,
      saml: { metadataXml, metadataUrl: metadataUrl?.toString() ?? null, entityId: idp.entityId },
      defaultRole: input.defaultRole,
      updatedAt: new Date(),
      updatedBy: actorName(actor),
    };
    await this.sso.connections.save(connection);
    await this.audit(actor, orgId, 'sso.connection_set', `saml ${idp.entityId}`);
    return connection;
  }

  private checkDefaultRole(role: Role): void {
    if (role === 'owner')
      throw badRequest('The default role cannot be owner: make owners by hand', { argument: 'defaultRole' });
  }

  /** Removes the connection and its domains: nobody is left refused a password with no other way in. */
  async remove(actor: Actor, orgId: string): Promise<boolean> {
    this.allowed(actor);
    const domains = await this.sso.domains.list(orgId);
    for (const domain of domains) await this.sso.domains.remove(orgId, domain.domain);
    const removed = await this.sso.connections.remove(orgId);
    if (removed || domains.length > 0) await this.audit(actor, orgId, 'sso.connection_removed', null);
    return removed;
  }

  async addDomain(actor: Actor, orgId: string, rawDomain: string): Promise<SsoDomainView> {
    this.allowed(actor);
    const domain = checkDomain(rawDomain);
    const claimed = await this.sso.domains.claim(orgId, domain, randomBytes(16).toString('hex'), new Date());
    await this.audit(actor, orgId, 'sso.domain_added', domain);
    return domainView(claimed);
  }

  /** Verified by its DNS TXT record; an operator's `proven` skips the lookup (development, the CLI). */
  async verifyDomain(actor: Actor, orgId: string, rawDomain: string, proven = false): Promise<SsoDomainView> {
    this.allowed(actor);
    const domain = checkDomain(rawDomain);
    const claim = await this.sso.domains.find(orgId, domain);
    if (!claim) throw notFound(`${domain} is not a domain of this organization: add it first`);
    if (claim.verifiedAt) return domainView(claim);
    if (!(proven && actor.kind === 'operator') && !(await this.lookUp(claim))) {
      const record = verificationRecord(domain, claim.token);
      throw badRequest(`No TXT record ${record.name} holds "${record.value}" yet (DNS changes can take a while)`, {
        argument: 'domain',
      });
    }
    if (!(await this.sso.domains.verify(orgId, domain, new Date())))
      throw badRequest(`${domain} is already verified by another organization`, { argument: 'domain' });
    await this.audit(actor, orgId, 'sso.domain_verified', domain);
    return domainView((await this.sso.domains.find(orgId, domain)) ?? claim);
  }

  async removeDomain(actor: Actor, orgId: string, rawDomain: string): Promise<boolean> {
    this.allowed(actor);
    const domain = checkDomain(rawDomain);
    const removed = await this.sso.domains.remove(orgId, domain);
    if (removed) await this.audit(actor, orgId, 'sso.domain_removed', domain);
    return removed;
  }

  async setRequired(actor: Actor, orgId: string, rawDomain: string, required: boolean): Promise<SsoDomainView> {
    this.allowed(actor);
    const domain = checkDomain(rawDomain);
    const claim = await this.sso.domains.find(orgId, domain);
    if (!claim) throw notFound(`${domain} is not a domain of this organization: add it first`);
    if (required && !claim.verifiedAt)
      throw badRequest(`Verify ${domain} before requiring single sign-on for it`, { argument: 'domain' });
    if (required && !(await this.sso.connections.find(orgId)))
      throw badRequest('Set a single sign-on connection before requiring it', { argument: 'domain' });
    await this.sso.domains.setRequired(orgId, domain, required);
    await this.audit(actor, orgId, 'sso.required_changed', `${domain}: ${required ? 'required' : 'optional'}`);
    return domainView({ ...claim, ssoRequired: required });
  }

  private async lookUp(claim: SsoDomain): Promise<boolean> {
    try {
      return await domainProven(claim.domain, claim.token, this.options.dnsServers);
    } catch (error) {
      throw appError(
        ErrorCode.SERVICE_UNAVAILABLE,
        `The DNS lookup of ${claim.domain} failed (${(error as { code?: string }).code ?? 'error'}); retry shortly`,
        { retryAfter: 5 },
      );
    }
  }

  private allowed(actor: Actor): void {
    if (actor.kind === 'member') requireOwner(actor.member.role);
  }

  private audit(actor: Actor, orgId: string, action: AuditAction, target: string | null): Promise<void> {
    return this.repositories.audit.record({
      orgId,
      action,
      actor: actorName(actor),
      target,
      address: actorAddress(actor),
    });
  }
}

const METADATA_TIMEOUT_MS = 10_000;
const MAX_METADATA_BYTES = 500_000;

/** The provider's metadata from its URL, bounded in time and size; BAD_REQUEST saying why it could not be read. */
async function fetchMetadata(url: URL): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    throw badRequest(`The SAML metadata at ${url.origin} could not be read: ${(error as Error).message}`, {
      argument: 'metadataUrl',
    });
  }
  const text = await response.text();
  if (!response.ok || text.length > MAX_METADATA_BYTES)
    throw badRequest(
      `The SAML metadata at ${url.toString()} answered ${response.status}${response.ok ? ' (too large)' : ''}`,
      {
        argument: 'metadataUrl',
      },
    );
  return text;
}
