import { randomBytes, randomUUID } from 'node:crypto';
import {
  loadIdentityConfig,
  MemberService,
  openRepositories,
  openSsoRepositories,
  OPERATOR,
  SsoSettings,
  startIdentityService,
  type IdentityRepositories,
  type RunningIdentityService,
} from '@fi/identity';
import { createLogger } from '@fi/shared';
import { newOrgId, ownDatabaseName } from '../stack';

/** Where the identity service sends people back; nothing listens there: the tests read the redirects. */
export const PUBLIC_URL = 'http://127.0.0.1:9';
export const PASSWORD = 'correct horse battery staple';
export const SESSION = 'csrfToken member { email role } organization { id }';
export const START = 'mutation($e: String!) { startSsoSignIn(email: $e) { url } }';
export const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { ${SESSION} } }`;

export interface Answer<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

export type SessionAnswer<F extends string> = Answer<
  Record<F, { member: { email: string; role: string }; organization: { id: string } }>
>;

export const newDomain = () => `${randomUUID().slice(0, 8)}.example.com`;

/** A browser talking to the identity service: keeps its cookies (session and SSO binding), sends its CSRF token. */
export class IdentityPage {
  private readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(private readonly url: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    if (this.csrf) headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    });
    for (const header of response.headers.getSetCookie()) {
      const [name, ...value] = header.split(';')[0].split('=');
      this.cookies.set(name, value.join('='));
    }
    const body = (await response.json()) as Answer<T>;
    const session = Object.values(body.data ?? {})[0] as { csrfToken?: string } | null;
    if (session?.csrfToken) this.csrf = session.csrfToken;
    return body;
  }
}

/**
 * An identity service of one test file on a database of its own, with SSO on (loopback http allowed).
 * The file's CLI works on the same database with the same key, as an operator's would.
 */
export async function startSsoIdentity() {
  Object.assign(process.env, {
    IDENTITY_MONGODB_DB: ownDatabaseName('identity_sso'),
    SSO_SECRET_KEY: randomBytes(32).toString('hex'),
    SSO_ALLOW_LOOPBACK_HTTP: 'true',
    PUBLIC_URL,
  });
  const identity: RunningIdentityService = await startIdentityService(
    loadIdentityConfig({
      MONGODB_URI: process.env.MONGODB_URI,
      MONGODB_DB: process.env.IDENTITY_MONGODB_DB,
      PORT: '0',
      PUBLIC_URL,
      SSO_SECRET_KEY: process.env.SSO_SECRET_KEY,
      SSO_ALLOW_LOOPBACK_HTTP: 'true',
      TWO_FACTOR_SECRET_KEY: randomBytes(32).toString('hex'),
      COOKIE_SECURE: 'false',
      MONGODB_MAX_TIME_MS: '25000',
    }),
    createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
  );
  const repositories: IdentityRepositories = await openRepositories(identity.connection);
  const settings = new SsoSettings(repositories, await openSsoRepositories(identity.connection), null, {
    allowLoopbackHttp: true,
    dnsServers: [],
  });
  const page = () => new IdentityPage(identity.url);

  /** A new organization with its owner signed in (a password sign-in) in a page of their own. */
  async function organizationWithOwner(domain: string) {
    const orgId = newOrgId();
    await repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
    const ownerEmail = `owner@${domain}`;
    await new MemberService(repositories).add(OPERATOR, orgId, {
      email: ownerEmail,
      name: 'Owner',
      role: 'owner',
      password: PASSWORD,
    });
    const owner = page();
    const signedIn = await owner.gql(SIGN_IN, { e: ownerEmail, p: PASSWORD });
    if (signedIn.errors) throw new Error(`the owner could not sign in: ${JSON.stringify(signedIn.errors)}`);
    return { orgId, owner, ownerEmail };
  }

  /** Claims `domain` as the owner would, and marks it verified as an operator may (unless told). */
  async function addDomain(orgId: string, owner: IdentityPage, domain: string, verified: boolean) {
    const added = await owner.gql('mutation($d: String!) { addSsoDomain(domain: $d) { domain } }', { d: domain });
    if (added.errors) throw new Error(`the domain was refused: ${JSON.stringify(added.errors)}`);
    if (verified) await settings.verifyDomain(OPERATOR, orgId, domain, true);
  }

  /** The targets of the organization's audit entries of refused sign-ins ("<reason>: <message>"). */
  async function refusals(orgId: string): Promise<string[]> {
    const entries = await repositories.audit.page(orgId, { action: 'sso.sign_in_refused' }, 0, 50);
    return entries.items.map((entry) => entry.target ?? '');
  }

  return { identity, repositories, page, organizationWithOwner, addDomain, refusals };
}
