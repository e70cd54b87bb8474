import { createHash, randomBytes } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import type { SecretBox } from '@fi/shared';
import type { Member } from '../data/memberRepository';
import type { IdentityRepositories } from '../data/repositories';
import { checkName } from '../domain/memberService';
import { hashPassword } from '../domain/passwords';
import { checkEmail, sessionId, type ActiveSession, type SessionService } from '../domain/sessionService';
import type { SsoConnection, SsoRepositories } from './data';
import { domainOf } from './emailDomain';
import { checkProviderUrl, isPlainHttp } from './issuerUrl';
import { authorizationUrl, discover, exchangeCode, newChecks, providerRefusal, type OidcPerson } from './oidcClient';
import { acceptSamlResponse, samlClient, type SamlPerson, type SamlSp } from './samlClient';
import { readIdpMetadata } from './samlMetadata';
import { ssoNotConfigured, ssoRefusal, type SsoRefusalReason } from './ssoErrors';

/** How long a sign-in sent to the identity provider may take to come back. */
export const SSO_ATTEMPT_TTL_MS = 10 * 60_000;
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
export const SAML_ACS_PATH = '/auth/saml/acs';
export const SAML_METADATA_PATH = '/auth/saml/metadata';

export interface SsoSignInOptions {
  /** The web application's origin, where the provider sends the browser back. */
  publicUrl: string;
  allowLoopbackHttp: boolean;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Signing in through an organization's identity provider. `start` finds the organization by the email's
 * verified domain and sends the browser to its provider with a fresh state, nonce and PKCE verifier kept
 * here (hashed state as the key, single use, SSO_ATTEMPT_TTL_MS); `finishOidc` checks the answer against
 * them and the browser that started (a binding cookie), then opens the same session a password sign-in
 * opens, making the person a member with the connection's default role on their first sign-in. Every
 * refusal has a clear message, a stable reason and an audit entry.
 */
export class SsoSignIn {
  constructor(
    private readonly repositories: IdentityRepositories,
    private readonly sso: SsoRepositories,
    private readonly sessions: SessionService,
    private readonly secrets: SecretBox | null,
    private readonly options: SsoSignInOptions,
  ) {}

  get redirectUri(): string {
    return `${this.options.publicUrl}${OIDC_CALLBACK_PATH}`;
  }

  /** The provider's address for this email, and the browser binding to set as a cookie. */
  async start(rawEmail: string, address: string): Promise<{ url: string; binding: string }> {
    const email = checkEmail(rawEmail);
    const domain = domainOf(email);
    const orgId = await this.sso.domains.ownerOf(domain);
    if (!orgId) {
      // Recorded in the log of each organization that claims the domain without having verified it.
      const claimants = await this.sso.domains.claimantsOf(domain);
      const message = `Single sign-on is not set up for ${domain}: no organization has verified this domain`;
      const refusals = await Promise.all(
        (claimants.length ? claimants : [null]).map((claimant) =>
          this.refuse(claimant, email, address, 'DOMAIN_NOT_VERIFIED', message),
        ),
      );
      throw refusals[0];
    }
    const connection = await this.sso.connections.find(orgId);
    if (!connection?.oidc && !connection?.saml)
      throw await this.refuse(
        orgId,
        email,
        address,
        'NO_CONNECTION',
        `The organization of ${domain} has no single sign-on connection; sign in with your password`,
      );
    const binding = randomBytes(32).toString('base64url');
    const attempt = {
      orgId,
      email,
      bindingHash: sha256(binding),
      expiresAt: new Date(Date.now() + SSO_ATTEMPT_TTL_MS),
    };
    if (connection.saml) {
      // RelayState names the attempt; the AuthnRequest's id, which the answer must be InResponseTo, is kept.
      const relayState = randomBytes(32).toString('base64url');
      let requestId = '';
      const saml = samlClient(
        await readIdpMetadata(connection.saml.metadataXml),
        this.sp,
        {
          saveAsync: async (id, value) => {
            requestId = id;
            return { value, createdAt: Date.now() };
          },
          getAsync: async () => null,
          removeAsync: async () => null,
        },
        SSO_ATTEMPT_TTL_MS,
      );
      const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
      await this.sso.attempts.create({
        ...attempt,
        id: sha256(relayState),
        protocol: 'saml',
        codeVerifier: '',
        nonce: '',
        requestId,
      });
      return { url, binding };
    }
    const config = await this.discover(connection, email, address);
    const checks = newChecks();
    await this.sso.attempts.create({
      ...attempt,
      id: sha256(checks.state),
      protocol: 'oidc',
      codeVerifier: checks.codeVerifier,
      nonce: checks.nonce,
      requestId: '',
    });
    return { url: await authorizationUrl(config, this.redirectUri, checks, email), binding };
  }

  /** Where identity providers send people back, as owners configure them. */
  get addresses() {
    return { oidcCallback: this.redirectUri, ...this.sp };
  }

  /** Our SAML service provider: entity id (where our metadata is) and assertion consumer, on the web origin. */
  get sp(): SamlSp {
    return {
      entityId: `${this.options.publicUrl}${SAML_METADATA_PATH}`,
      acsUrl: `${this.options.publicUrl}${SAML_ACS_PATH}`,
    };
  }

  /**
   * The identity provider's POST to our assertion consumer (SAMLResponse and RelayState), checked now:
   * the attempt it answers (once), signature, issuer, audience, recipient, timestamps, InResponseTo, and
   * the assertion's id never seen before. Returns the completion page's ticket: the browser that started
   * the sign-in finishes it there (finishSaml), where its binding cookie comes along.
   */
  async acceptSaml(form: URLSearchParams, address: string): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    const outcome = await this.samlOutcome(form, address);
    await this.sso.attempts.saveOutcome({
      id: sha256(ticket),
      ...outcome,
      expiresAt: new Date(Date.now() + SSO_ATTEMPT_TTL_MS),
    });
    return ticket;
  }

  private async samlOutcome(form: URLSearchParams, address: string) {
    const relayState = form.get('RelayState') ?? '';
    const attempt = relayState ? await this.sso.attempts.find(sha256(relayState)) : null;
    const refused = async (orgId: string | null, email: string, reason: SsoRefusalReason, message: string) => {
      await this.refuse(orgId, email, address, reason, message);
      return { attemptId: attempt?.id ?? null, orgId, email: null, name: null, refusal: { reason, message } };
    };
    if (!attempt || attempt.protocol !== 'saml')
      return refused(
        null,
        'anonymous',
        'UNKNOWN_ATTEMPT',
        'This sign-in answer matches no sign-in started here; start again with "Sign in with SSO"',
      );
    const { orgId, email } = attempt;
    if (attempt.expiresAt.getTime() <= Date.now())
      return refused(orgId, email, 'EXPIRED_ATTEMPT', 'This sign-in took too long; start again');
    if (!(await this.sso.attempts.firstUse(`saml:${attempt.id}`, attempt.expiresAt)))
      return refused(
        orgId,
        email,
        'REPLAYED',
        'This sign-in answer was already used; start again with "Sign in with SSO"',
      );
    const connection = await this.sso.connections.find(orgId);
    if (!connection?.saml) return refused(orgId, email, 'NO_CONNECTION', 'Single sign-on was removed meanwhile');
    const requestIds = {
      saveAsync: async () => null,
      // The library reads the value as the request's creation time.
      getAsync: async (id: string) =>
        id === attempt.requestId ? new Date(attempt.expiresAt.getTime() - SSO_ATTEMPT_TTL_MS).toISOString() : null,
      removeAsync: async () => null,
    };
    let person: SamlPerson;
    try {
      const saml = samlClient(
        await readIdpMetadata(connection.saml.metadataXml),
        this.sp,
        requestIds,
        SSO_ATTEMPT_TTL_MS,
      );
      person = await acceptSamlResponse(saml, form.get('SAMLResponse') ?? '');
    } catch (error) {
      return refused(orgId, email, 'TOKEN_REJECTED', `The identity provider's answer was refused: ${describe(error)}`);
    }
    if (person.recipient !== this.sp.acsUrl)
      return refused(
        orgId,
        email,
        'TOKEN_REJECTED',
        `The identity provider's answer was refused: its Recipient is not ${this.sp.acsUrl}`,
      );
    // A unique insert of the assertion's id: the same assertion is accepted once, however it comes back.
    if (
      !(await this.sso.attempts.firstUse(
        `saml-assertion:${connection.saml.entityId}:${person.assertionId}`,
        new Date(Date.now() + 24 * 3_600_000),
      ))
    )
      return refused(orgId, email, 'REPLAYED', 'This assertion was already used; start again with "Sign in with SSO"');
    if (!person.email) return refused(orgId, email, 'NO_EMAIL', 'The identity provider gave no email for you');
    return { attemptId: attempt.id, orgId, email: person.email, name: person.name, refusal: null };
  }

  /** The completion page's ticket, by the browser that started: the session, or the refusal found at the ACS. */
  async finishSaml(
    ticket: string,
    binding: string | undefined,
    address: string,
    previousToken: string | undefined,
  ): Promise<{ token: string; session: ActiveSession }> {
    const id = sha256(ticket);
    const outcome = await this.sso.attempts.findOutcome(id);
    if (
      !outcome ||
      outcome.expiresAt.getTime() <= Date.now() ||
      !(await this.sso.attempts.firstUse(`saml-ticket:${id}`, outcome.expiresAt))
    )
      throw await this.refuse(
        outcome?.orgId ?? null,
        'anonymous',
        address,
        'UNKNOWN_ATTEMPT',
        'This sign-in link is unknown, used or expired; start again with "Sign in with SSO"',
      );
    const attempt = outcome.attemptId ? await this.sso.attempts.find(outcome.attemptId) : null;
    if (attempt && (!binding || sha256(binding) !== attempt.bindingHash))
      throw await this.refuse(
        outcome.orgId,
        attempt.email,
        address,
        'OTHER_BROWSER',
        'This sign-in was started in another browser (or its cookie is gone); start again here',
      );
    // Recorded in the audit log when the answer came in.
    if (outcome.refusal || !attempt || !outcome.email) {
      const refusal = outcome.refusal ?? { reason: 'UNKNOWN_ATTEMPT', message: 'This sign-in failed; start again' };
      throw ssoRefusal(refusal.reason as SsoRefusalReason, refusal.message);
    }
    const connection = await this.sso.connections.find(attempt.orgId);
    if (!connection?.saml)
      throw await this.refuse(
        attempt.orgId,
        attempt.email,
        address,
        'NO_CONNECTION',
        'Single sign-on was removed meanwhile',
      );
    return this.complete(connection, outcome.email, outcome.name, 'saml', address, previousToken);
  }

  /** The provider's answer (the callback's query string), checked; a session for the person it names. */
  async finishOidc(
    callbackQuery: string,
    binding: string | undefined,
    address: string,
    previousToken: string | undefined,
  ): Promise<{ token: string; session: ActiveSession }> {
    const params = new URLSearchParams(callbackQuery.replace(/^\?/, ''));
    const state = params.get('state') ?? '';
    const found = state ? await this.sso.attempts.find(sha256(state)) : null;
    const attempt = found?.protocol === 'oidc' ? found : null;
    if (!attempt)
      throw await this.refuse(
        null,
        'anonymous',
        address,
        'UNKNOWN_ATTEMPT',
        'This sign-in answer matches no sign-in started here; start again with "Sign in with SSO"',
      );
    const { orgId, email } = attempt;
    if (attempt.expiresAt.getTime() <= Date.now())
      throw await this.refuse(orgId, email, address, 'EXPIRED_ATTEMPT', 'This sign-in took too long; start again');
    if (!(await this.sso.attempts.firstUse(`oidc:${attempt.id}`, attempt.expiresAt)))
      throw await this.refuse(
        orgId,
        email,
        address,
        'REPLAYED',
        'This sign-in answer was already used; start again with "Sign in with SSO"',
      );
    if (!binding || sha256(binding) !== attempt.bindingHash)
      throw await this.refuse(
        orgId,
        email,
        address,
        'OTHER_BROWSER',
        'This sign-in was started in another browser (or its cookie is gone); start again here',
      );
    const connection = await this.sso.connections.find(orgId);
    if (!connection?.oidc)
      throw await this.refuse(orgId, email, address, 'NO_CONNECTION', 'Single sign-on was removed meanwhile');
    const config = await this.discover(connection, email, address);
    let person: OidcPerson;
    try {
      person = await exchangeCode(config, new URL(`${this.redirectUri}?${params.toString()}`), { ...attempt, state });
    } catch (error) {
      const refused = providerRefusal(error);
      throw await this.refuse(
        orgId,
        email,
        address,
        refused ? 'PROVIDER_ERROR' : 'TOKEN_REJECTED',
        refused
          ? `The identity provider refused the sign-in (${refused})`
          : `The identity provider's answer was refused: ${describe(error)}`,
      );
    }
    if (!person.email)
      throw await this.refuse(orgId, email, address, 'NO_EMAIL', 'The identity provider gave no email for you');
    if (!person.emailVerified)
      throw await this.refuse(
        orgId,
        person.email,
        address,
        'EMAIL_NOT_VERIFIED',
        `The identity provider has not verified ${person.email} (email_verified); ask its administrator`,
      );
    return this.complete(connection, person.email, person.name, 'oidc', address, previousToken);
  }

  /**
   * The person the provider vouched for, signed in: their email must be in a domain this organization
   * verified, and they must not belong to another organization. A first sign-in makes them a member.
   */
  async complete(
    connection: SsoConnection,
    rawEmail: string,
    name: string | null,
    protocol: 'oidc' | 'saml',
    address: string,
    previousToken: string | undefined,
  ): Promise<{ token: string; session: ActiveSession }> {
    const { orgId } = connection;
    const email = rawEmail.trim().toLowerCase();
    const domain = domainOf(email);
    if ((await this.sso.domains.ownerOf(domain)) !== orgId)
      throw await this.refuse(
        orgId,
        email,
        address,
        'FOREIGN_DOMAIN',
        `${domain} is not a verified domain of this organization: its identity provider cannot sign in ${email}`,
      );
    const member = await this.memberFor(connection, email, name, address);
    if (member.orgId !== orgId)
      throw await this.refuse(
        orgId,
        email,
        address,
        'OTHER_ORGANIZATION',
        `${email} is a member of another organization`,
      );
    const organization = await this.repositories.organizations.findById(orgId);
    if (!organization) throw ssoNotConfigured();
    // Through the same gate as a password sign-in (a second factor, when the organization asks for one).
    const result = await this.sessions.start(member, organization);
    if (previousToken) await this.repositories.sessions.revoke(sessionId(previousToken));
    await this.audit(orgId, 'sso.signed_in', email, protocol, address);
    return result;
  }

  private async memberFor(connection: SsoConnection, email: string, name: string | null, address: string) {
    const existing = await this.repositories.members.findCredentials(email);
    if (existing) return existing.member;
    const created = await this.repositories.members.create({
      orgId: connection.orgId,
      email,
      name: personName(name, email),
      role: connection.defaultRole,
      // No password: nothing matches a hash of 32 random bytes nobody keeps; a reset link can give one.
      passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    });
    // Null: the same person's other sign-in created them a moment ago.
    if (!created) return ((await this.repositories.members.findCredentials(email)) as { member: Member }).member;
    await this.audit(connection.orgId, 'sso.member_provisioned', email, `${email} as ${created.role}`, address);
    return created;
  }

  private async discover(connection: SsoConnection, email: string, address: string) {
    const oidc = connection.oidc;
    if (!oidc) throw ssoNotConfigured();
    if (!this.secrets) throw ssoNotConfigured();
    const issuer = checkProviderUrl(oidc.issuer, this.options.allowLoopbackHttp);
    try {
      return await discover({
        issuer,
        clientId: oidc.clientId,
        clientSecret: this.secrets.open(oidc.clientSecret, connection.orgId),
        plainHttp: isPlainHttp(issuer),
      });
    } catch (error) {
      throw await this.refuse(
        connection.orgId,
        email,
        address,
        'PROVIDER_ERROR',
        `The identity provider ${issuer.origin} could not be reached or read: ${describe(error)}`,
      );
    }
  }

  private async refuse(
    orgId: string | null,
    actor: string,
    address: string,
    reason: SsoRefusalReason,
    message: string,
  ): Promise<GraphQLError> {
    await this.audit(orgId, 'sso.sign_in_refused', actor, `${reason}: ${message}`, address);
    return ssoRefusal(reason, message);
  }

  private audit(
    orgId: string | null,
    action: 'sso.signed_in' | 'sso.member_provisioned' | 'sso.sign_in_refused',
    actor: string,
    target: string,
    address: string,
  ): Promise<void> {
    return this.repositories.audit.record({ orgId, action, actor, target: target.slice(0, 500), address });
  }
}

function personName(name: string | null, email: string): string {
  try {
    return checkName((name ?? '').slice(0, 100));
  } catch {
    return email.slice(0, email.indexOf('@')).slice(0, 100) || email;
  }
}

/**
 * A library's refusal in its own words: openid-client wraps the check that failed (its message names it,
 * e.g. 'unexpected JWT "aud" (audience) claim value') with the claim at hand; or the network's failure.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  if (error.message === 'fetch failed') {
    const code = (error.cause as { code?: string } | undefined)?.code;
    return `unreachable${code ? ` (${code})` : ''}`;
  }
  const detail = error.cause instanceof Error ? error.cause : error;
  const claim = (detail.cause as { claim?: unknown } | undefined)?.claim;
  return typeof claim === 'string' && !detail.message.includes(`"${claim}"`)
    ? `${detail.message} (claim "${claim}")`
    : detail.message;
}
