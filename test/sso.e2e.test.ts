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
import { cli } from './helpers/cli';
import { LocalOidcProvider } from './helpers/oidc/localOidcProvider';
import { newOrgId, ownDatabaseName } from './helpers/stack';

/** Where the identity service sends people back; nothing listens there: the test reads the redirect. */
const PUBLIC_URL = 'http://127.0.0.1:9';
const CALLBACK = `${PUBLIC_URL}/auth/oidc/callback`;
const PASSWORD = 'correct horse battery staple';

let provider: LocalOidcProvider;
let identity: RunningIdentityService;
let repositories: IdentityRepositories;
let settings: SsoSettings;

beforeAll(async () => {
  provider = await LocalOidcProvider.start([CALLBACK]);
  // The CLI of this file works on the same database with the same key, as an operator's would.
  Object.assign(process.env, {
    IDENTITY_MONGODB_DB: ownDatabaseName('identity_sso'),
    SSO_SECRET_KEY: randomBytes(32).toString('hex'),
    SSO_ALLOW_LOOPBACK_HTTP: 'true',
    PUBLIC_URL,
  });
  identity = await startIdentityService(
    loadIdentityConfig({
      MONGODB_URI: process.env.MONGODB_URI,
      MONGODB_DB: process.env.IDENTITY_MONGODB_DB,
      PORT: '0',
      PUBLIC_URL,
      SSO_SECRET_KEY: process.env.SSO_SECRET_KEY,
      SSO_ALLOW_LOOPBACK_HTTP: 'true',
      COOKIE_SECURE: 'false',
      MONGODB_MAX_TIME_MS: '25000',
    }),
    createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
  );
  repositories = await openRepositories(identity.connection);
  settings = new SsoSettings(repositories, await openSsoRepositories(identity.connection), null, {
    allowLoopbackHttp: true,
    dnsServers: [],
  });
});
afterAll(async () => {
  await identity?.close();
  await provider?.stop();
});
afterEach(() => provider.setMode('normal'));

interface Answer<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** A browser talking to the identity service: keeps its cookies (session and SSO binding), sends its CSRF token. */
class Page {
  private readonly cookies = new Map<string, string>();
  csrf = '';

  async gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (this.csrf) headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${identity.url}/graphql`, {
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

const SESSION = 'csrfToken member { email role } organization { id }';
const START = 'mutation($e: String!) { startSsoSignIn(email: $e) { url } }';
const FINISH = `mutation($q: String!) { finishOidcSignIn(callbackQuery: $q) { ${SESSION} } }`;
const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { ${SESSION} } }`;
type FinishAnswer = Answer<{
  finishOidcSignIn: { member: { email: string; role: string }; organization: { id: string } };
}>;

const newDomain = () => `${randomUUID().slice(0, 8)}.example.com`;

/** An organization whose owner set the local provider as its OIDC connection, with `domain` (verified unless told). */
async function organizationWithSso(domain: string, { verified = true } = {}) {
  const orgId = newOrgId();
  await repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
  const ownerEmail = `owner@${domain}`;
  await new MemberService(repositories).add(OPERATOR, orgId, {
    email: ownerEmail,
    name: 'Owner',
    role: 'owner',
    password: PASSWORD,
  });
  const owner = new Page();
  expect((await owner.gql(SIGN_IN, { e: ownerEmail, p: PASSWORD })).errors).toBeUndefined();
  const set = await owner.gql<{ setOidcConnection: Record<string, unknown> }>(
    'mutation($i: String!, $c: String!, $s: String) { setOidcConnection(issuer: $i, clientId: $c, clientSecret: $s, defaultRole: member) { protocol issuer clientId defaultRole redirectUri } }',
    { i: provider.issuer, c: provider.clientId, s: provider.clientSecret },
  );
  expect(set.errors).toBeUndefined();
  expect(set.data?.setOidcConnection).toEqual({
    protocol: 'oidc',
    issuer: provider.issuer,
    clientId: provider.clientId,
    defaultRole: 'member',
    redirectUri: CALLBACK,
  });
  expect(
    (await owner.gql('mutation($d: String!) { addSsoDomain(domain: $d) { domain } }', { d: domain })).errors,
  ).toBeUndefined();
  if (verified) await settings.verifyDomain(OPERATOR, orgId, domain, true);
  return { orgId, owner, ownerEmail };
}

/** Starts a sign-in for `email` in `page`, lets the provider log in `login` (the email, unless told), returns the callback. */
async function throughProvider(page: Page, email: string, login = email): Promise<URL> {
  const started = await page.gql<{ startSsoSignIn: { url: string } }>(START, { e: email });
  expect(started.errors).toBeUndefined();
  const url = new URL(started.data!.startSsoSignIn.url);
  expect(url.origin).toBe(provider.issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  url.searchParams.set('login_hint', login);
  return provider.authorize(url.toString(), CALLBACK);
}

const finish = (page: Page, callback: URL) => page.gql(FINISH, { q: callback.search }) as Promise<FinishAnswer>;

async function refusals(orgId: string) {
  const page = await repositories.audit.page(orgId, { action: 'sso.sign_in_refused' }, 0, 50);
  return page.items.map((entry) => entry.target ?? '');
}

describe('signing in with OIDC through a real OpenID Provider', () => {
  test('when a new person of a verified domain signs in, then they land with a session as a member of the default role', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const page = new Page();
    const answer = await finish(page, await throughProvider(page, `ada@${domain}`));
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.finishOidcSignIn).toMatchObject({
      member: { email: `ada@${domain}`, role: 'member' },
      organization: { id: orgId },
    });
    // The same session as a password sign-in: the cookie names a member.
    expect((await page.gql<{ me: { member: { email: string } } }>(`{ me { ${SESSION} } }`)).data?.me.member.email).toBe(
      `ada@${domain}`,
    );
    const audit = await repositories.audit.page(orgId, {}, 0, 50);
    expect(audit.items.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['sso.member_provisioned', 'sso.signed_in']),
    );
    // A second sign-in finds the member again.
    const again = new Page();
    expect(
      (await finish(again, await throughProvider(again, `ada@${domain}`))).data?.finishOidcSignIn.member.role,
    ).toBe('member');
    expect((await repositories.members.list(orgId)).filter((m) => m.email === `ada@${domain}`)).toHaveLength(1);
  });

  test('when the client secret is stored, then it is sealed and never answered', async () => {
    const { orgId, owner } = await organizationWithSso(newDomain());
    const stored = JSON.stringify(
      await identity.connection.db!.collection('sso_connections').findOne({ _id: orgId as never }),
    );
    expect(stored).not.toContain(provider.clientSecret);
    const shown = await owner.gql('{ ssoConnection { protocol issuer clientId defaultRole redirectUri updatedBy } }');
    expect(JSON.stringify(shown)).not.toContain(provider.clientSecret);
  });

  test.each([
    ['tamper', /JWT signature verification failed/],
    ['wrong-audience', /unexpected JWT "aud" \(audience\) claim value/],
    ['expired', /"exp" \(expiration time\) claim value, expiration is past/],
  ] as const)(
    'when the ID token is %s, then the sign-in is refused with a clear message and audited',
    async (mode, pattern) => {
      const domain = newDomain();
      const { orgId } = await organizationWithSso(domain);
      const page = new Page();
      const callback = await throughProvider(page, `grace@${domain}`);
      await provider.setMode(mode);
      const answer = await finish(page, callback);
      expect(answer.errors?.[0].message).toMatch(/^The identity provider's answer was refused: /);
      expect(answer.errors?.[0].message).toMatch(pattern);
      expect(answer.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'TOKEN_REJECTED' });
      expect(await refusals(orgId)).toEqual([expect.stringMatching(/^TOKEN_REJECTED: /)]);
      expect((await repositories.members.list(orgId)).map((m) => m.email)).not.toContain(`grace@${domain}`);
    },
  );

  test('when one answer is sent twice at once, then exactly one signs in and the other is refused as replayed', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const page = new Page();
    const callback = await throughProvider(page, `lin@${domain}`);
    const answers = await Promise.all([finish(page, callback), finish(page, callback)]);
    expect(answers.filter((answer) => answer.data?.finishOidcSignIn)).toHaveLength(1);
    const refused = answers.find((answer) => answer.errors)!;
    expect(refused.errors?.[0]).toMatchObject({
      message: 'This sign-in answer was already used; start again with "Sign in with SSO"',
      extensions: { reason: 'REPLAYED' },
    });
    // And once more later, the state (and with it the nonce and verifier) stays used up.
    expect((await finish(page, callback)).errors?.[0].extensions?.reason).toBe('REPLAYED');
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^REPLAYED/), expect.stringMatching(/^REPLAYED/)]);
  });

  test('when the answer comes back to another browser, then it is refused', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const callback = await throughProvider(new Page(), `mo@${domain}`);
    const answer = await finish(new Page(), callback);
    expect(answer.errors?.[0].extensions?.reason).toBe('OTHER_BROWSER');
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^OTHER_BROWSER/)]);
  });

  test('when the domain is not verified, then the sign-in does not start and the claiming organization sees why', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain, { verified: false });
    const answer = await new Page().gql(START, { e: `kim@${domain}` });
    expect(answer.errors?.[0]).toMatchObject({
      message: `Single sign-on is not set up for ${domain}: no organization has verified this domain`,
      extensions: { code: 'UNAUTHENTICATED', reason: 'DOMAIN_NOT_VERIFIED' },
    });
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^DOMAIN_NOT_VERIFIED/)]);
  });

  test("when an organization's provider vouches for an email of another organization's domain, then it is refused", async () => {
    const ours = newDomain();
    const theirs = newDomain();
    const { orgId } = await organizationWithSso(ours);
    const other = await organizationWithSso(theirs);
    const page = new Page();
    const answer = await finish(page, await throughProvider(page, `eve@${ours}`, `boss@${theirs}`));
    expect(answer.errors?.[0]).toMatchObject({
      message: `${theirs} is not a verified domain of this organization: its identity provider cannot sign in boss@${theirs}`,
      extensions: { reason: 'FOREIGN_DOMAIN' },
    });
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^FOREIGN_DOMAIN/)]);
    expect((await repositories.members.list(other.orgId)).map((m) => m.email)).toEqual([other.ownerEmail]);
  });

  test('when the provider has not verified the email, then it is refused', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const page = new Page();
    const answer = await finish(page, await throughProvider(page, `unverified.joe@${domain}`));
    expect(answer.errors?.[0].extensions?.reason).toBe('EMAIL_NOT_VERIFIED');
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^EMAIL_NOT_VERIFIED/)]);
  });

  test("when SSO is required for a domain, then its people's passwords are refused and an owner's still opens (break glass)", async () => {
    const domain = newDomain();
    const { orgId, owner, ownerEmail } = await organizationWithSso(domain);
    await new MemberService(repositories).add(OPERATOR, orgId, {
      email: `pat@${domain}`,
      name: 'Pat',
      role: 'admin',
      password: PASSWORD,
    });
    const required = await owner.gql(
      'mutation($d: String!) { setSsoRequired(domain: $d, required: true) { domain ssoRequired verified } }',
      {
        d: domain,
      },
    );
    expect(required.data).toEqual({ setSsoRequired: { domain, ssoRequired: true, verified: true } });
    const refused = await new Page().gql(SIGN_IN, { e: `pat@${domain}`, p: PASSWORD });
    expect(refused.errors?.[0]).toMatchObject({
      message: `People of ${domain} sign in with single sign-on: use "Sign in with SSO"`,
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await new Page().gql(SIGN_IN, { e: ownerEmail, p: PASSWORD })).errors).toBeUndefined();
    const audit = await repositories.audit.page(orgId, {}, 0, 50);
    expect(audit.items.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['sso.password_refused', 'sso.break_glass_sign_in', 'sso.required_changed']),
    );
  });
});

describe('the CLI sets, shows and removes single sign-on through the same rules', () => {
  test('when an operator sets a connection with a domain, then its people sign in with the default role, show never prints the secret, and remove ends it', async () => {
    const domain = newDomain();
    const orgId = newOrgId();
    await repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
    const set = await cli(
      'sso',
      'set',
      '--org',
      orgId,
      '--issuer',
      provider.issuer,
      '--client-id',
      provider.clientId,
      '--client-secret',
      provider.clientSecret,
      '--domain',
      domain,
      '--default-role',
      'viewer',
    );
    expect(set).toMatchObject({ code: 0, stderr: expect.stringContaining(`${domain} (verified)`) });
    expect(set.stderr).toContain(CALLBACK);

    const page = new Page();
    const answer = await finish(page, await throughProvider(page, `ola@${domain}`));
    expect(answer.data?.finishOidcSignIn.member).toEqual({ email: `ola@${domain}`, role: 'viewer' });

    const shown = await cli('sso', 'show', '--org', orgId);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toEqual(
      expect.arrayContaining([
        `issuer\t${provider.issuer}`,
        `default role\tviewer`,
        `domain\t${domain}\tverified\tpassword allowed`,
      ]),
    );
    expect(shown.stdout.join('\n')).not.toContain(provider.clientSecret);
    const audit = await repositories.audit.page(orgId, { actor: 'cli' }, 0, 10);
    expect(audit.items.map((entry) => entry.action).sort()).toEqual([
      'sso.connection_set',
      'sso.domain_added',
      'sso.domain_verified',
    ]);

    expect(await cli('sso', 'remove', '--org', orgId)).toMatchObject({ code: 0 });
    expect((await new Page().gql(START, { e: `ola@${domain}` })).errors?.[0].extensions?.reason).toBe(
      'DOMAIN_NOT_VERIFIED',
    );
  });

  test.each([
    [['--default-role', 'owner'], 'The default role cannot be owner: make owners by hand'],
    [['--issuer', 'http://idp.example.com'], 'The issuer must be an https:// URL (http:// only on a loopback address)'],
    [['--domain', 'not a domain'], '"not a domain" is not a domain name (e.g. example.com)'],
  ])('when sso set is given %j, then it exits 2 naming the problem', async (change, message) => {
    const orgId = newOrgId();
    await repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
    const args = {
      '--issuer': provider.issuer,
      '--client-id': provider.clientId,
      '--client-secret': provider.clientSecret,
      '--domain': newDomain(),
      '--default-role': 'member',
      [change[0]]: change[1],
    };
    const result = await cli('sso', 'set', '--org', orgId, ...Object.entries(args).flat());
    expect(result).toMatchObject({ code: 2, stderr: message });
  });
});
