import { MemberService, OPERATOR } from '@fi/identity';
import { generate } from 'otplib';
import { cli } from './helpers/cli';
import { LocalOidcProvider } from './helpers/sso/localOidcProvider';
import {
  newDomain,
  PASSWORD,
  PUBLIC_URL,
  SESSION,
  SIGN_IN,
  START,
  startSsoIdentity,
  type IdentityPage,
  type SessionAnswer,
} from './helpers/sso/ssoIdentity';
import { newOrgId } from './helpers/stack';

const CALLBACK = `${PUBLIC_URL}/auth/oidc/callback`;
const FINISH = `mutation($q: String!) { finishOidcSignIn(callbackQuery: $q) { ${SESSION} } }`;

let provider: LocalOidcProvider;
let sso: Awaited<ReturnType<typeof startSsoIdentity>>;

beforeAll(async () => {
  provider = await LocalOidcProvider.start([CALLBACK]);
  sso = await startSsoIdentity();
});
afterAll(async () => {
  await sso?.identity.close();
  await provider?.stop();
});
afterEach(() => provider.setMode('normal'));

/** An organization whose owner set the local provider as its OIDC connection, with `domain` (verified unless told). */
async function organizationWithSso(domain: string, { verified = true } = {}) {
  const { orgId, owner, ownerEmail } = await sso.organizationWithOwner(domain);
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
  await sso.addDomain(orgId, owner, domain, verified);
  return { orgId, owner, ownerEmail };
}

/** Starts a sign-in for `email` in `page`, lets the provider log in `login` (the email, unless told), returns the callback. */
async function throughProvider(page: IdentityPage, email: string, login = email): Promise<URL> {
  const started = await page.gql<{ startSsoSignIn: { url: string } }>(START, { e: email });
  expect(started.errors).toBeUndefined();
  const url = new URL(started.data!.startSsoSignIn.url);
  expect(url.origin).toBe(provider.issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  url.searchParams.set('login_hint', login);
  return provider.authorize(url.toString(), CALLBACK);
}

const finish = (page: IdentityPage, callback: URL) =>
  page.gql(FINISH, { q: callback.search }) as Promise<SessionAnswer<'finishOidcSignIn'>>;
const refusals = (orgId: string) => sso.refusals(orgId);

describe('signing in with OIDC through a real OpenID Provider', () => {
  test('when a new person of a verified domain signs in, then they land with a session as a member of the default role', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const page = sso.page();
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
    const audit = await sso.repositories.audit.page(orgId, {}, 0, 50);
    expect(audit.items.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['sso.member_provisioned', 'sso.signed_in']),
    );
    // A second sign-in finds the member again.
    const again = sso.page();
    expect(
      (await finish(again, await throughProvider(again, `ada@${domain}`))).data?.finishOidcSignIn.member.role,
    ).toBe('member');
    expect((await sso.repositories.members.list(orgId)).filter((m) => m.email === `ada@${domain}`)).toHaveLength(1);
  });

  test('when the client secret is stored, then it is sealed and never answered', async () => {
    const { orgId, owner } = await organizationWithSso(newDomain());
    const stored = JSON.stringify(
      await sso.identity.connection.db!.collection('sso_connections').findOne({ _id: orgId as never }),
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
      const page = sso.page();
      const callback = await throughProvider(page, `grace@${domain}`);
      await provider.setMode(mode);
      const answer = await finish(page, callback);
      expect(answer.errors?.[0].message).toMatch(/^The identity provider's answer was refused: /);
      expect(answer.errors?.[0].message).toMatch(pattern);
      expect(answer.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'TOKEN_REJECTED' });
      expect(await refusals(orgId)).toEqual([expect.stringMatching(/^TOKEN_REJECTED: /)]);
      expect((await sso.repositories.members.list(orgId)).map((m) => m.email)).not.toContain(`grace@${domain}`);
    },
  );

  test('when one answer is sent twice at once, then exactly one signs in and the other is refused as replayed', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const page = sso.page();
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
    const callback = await throughProvider(sso.page(), `mo@${domain}`);
    const answer = await finish(sso.page(), callback);
    expect(answer.errors?.[0].extensions?.reason).toBe('OTHER_BROWSER');
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^OTHER_BROWSER/)]);
  });

  test('when the domain is not verified, then the sign-in does not start and the claiming organization sees why', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain, { verified: false });
    const answer = await sso.page().gql(START, { e: `kim@${domain}` });
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
    const page = sso.page();
    const answer = await finish(page, await throughProvider(page, `eve@${ours}`, `boss@${theirs}`));
    expect(answer.errors?.[0]).toMatchObject({
      message: `${theirs} is not a verified domain of this organization: its identity provider cannot sign in boss@${theirs}`,
      extensions: { reason: 'FOREIGN_DOMAIN' },
    });
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^FOREIGN_DOMAIN/)]);
    expect((await sso.repositories.members.list(other.orgId)).map((m) => m.email)).toEqual([other.ownerEmail]);
  });

  test('when the provider has not verified the email, then it is refused', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSso(domain);
    const page = sso.page();
    const answer = await finish(page, await throughProvider(page, `unverified.joe@${domain}`));
    expect(answer.errors?.[0].extensions?.reason).toBe('EMAIL_NOT_VERIFIED');
    expect(await refusals(orgId)).toEqual([expect.stringMatching(/^EMAIL_NOT_VERIFIED/)]);
  });

  test("when SSO is required for a domain, then its people's passwords are refused and an owner's still opens (break glass)", async () => {
    const domain = newDomain();
    const { orgId, owner, ownerEmail } = await organizationWithSso(domain);
    await new MemberService(sso.repositories).add(OPERATOR, orgId, {
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
    const refused = await sso.page().gql(SIGN_IN, { e: `pat@${domain}`, p: PASSWORD });
    expect(refused.errors?.[0]).toMatchObject({
      message: `People of ${domain} sign in with single sign-on: use "Sign in with SSO"`,
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await sso.page().gql(SIGN_IN, { e: ownerEmail, p: PASSWORD })).errors).toBeUndefined();
    const audit = await sso.repositories.audit.page(orgId, {}, 0, 50);
    expect(audit.items.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['sso.password_refused', 'sso.break_glass_sign_in', 'sso.required_changed']),
    );
  });
});

describe('the CLI sets, shows and removes single sign-on through the same rules', () => {
  test('when an operator sets a connection with a domain, then its people sign in with the default role, show never prints the secret, and remove ends it', async () => {
    const domain = newDomain();
    const orgId = newOrgId();
    await sso.repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
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

    const page = sso.page();
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
    const audit = await sso.repositories.audit.page(orgId, { actor: 'cli' }, 0, 10);
    expect(audit.items.map((entry) => entry.action).sort()).toEqual([
      'sso.connection_set',
      'sso.domain_added',
      'sso.domain_verified',
    ]);

    expect(await cli('sso', 'remove', '--org', orgId)).toMatchObject({ code: 0 });
    expect((await sso.page().gql(START, { e: `ola@${domain}` })).errors?.[0].extensions?.reason).toBe(
      'DOMAIN_NOT_VERIFIED',
    );
  });

  test.each([
    [['--default-role', 'owner'], 'The default role cannot be owner: make owners by hand'],
    [['--issuer', 'http://idp.example.com'], 'The issuer must be an https:// URL (http:// only on a loopback address)'],
    [['--domain', 'not a domain'], '"not a domain" is not a domain name (e.g. example.com)'],
  ])('when sso set is given %j, then it exits 2 naming the problem', async (change, message) => {
    const orgId = newOrgId();
    await sso.repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
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

describe('single sign-on then the second factor', () => {
  test("when the organization requires two-factor, then the provider's answer opens no session until the member sets it up, and the next sign-in asks for the code", async () => {
    const domain = newDomain();
    const { owner } = await organizationWithSso(domain);
    expect((await owner.gql('mutation { requireTwoFactor(required: true) }')).errors).toBeUndefined();

    const page = sso.page();
    const halfway = await finish(page, await throughProvider(page, `kai@${domain}`));
    expect(halfway.errors?.[0]).toMatchObject({
      extensions: { code: 'UNAUTHENTICATED', reason: 'TWO_FACTOR_ENROLLMENT_REQUIRED' },
    });
    expect((await page.gql('{ me { csrfToken } }')).data?.me).toBeNull();
    const challenge = halfway.errors?.[0].extensions?.challenge as string;
    const setup = await page.gql<{ startTwoFactorEnrollment: { secret: string } }>(
      'mutation($c: String!) { startTwoFactorEnrollment(challenge: $c) { secret } }',
      { c: challenge },
    );
    const secret = setup.data!.startTwoFactorEnrollment.secret;
    const epoch = Math.floor(Date.now() / 1000);
    const enrolled = await page.gql<{ finishTwoFactorEnrollment: { session: { member: { email: string } } } }>(
      `mutation($ch: String!, $c: String!) { finishTwoFactorEnrollment(challenge: $ch, code: $c) { session { ${SESSION} } recoveryCodes } }`,
      { ch: challenge, c: await generate({ secret, epoch }) },
    );
    expect(enrolled.data?.finishTwoFactorEnrollment.session.member.email).toBe(`kai@${domain}`);

    const next = sso.page();
    const asked = await finish(next, await throughProvider(next, `kai@${domain}`));
    expect(asked.errors?.[0].extensions?.reason).toBe('TWO_FACTOR_REQUIRED');
    const verified = await next.gql<{ verifyTwoFactor: { member: { email: string } } }>(
      `mutation($ch: String!, $c: String!) { verifyTwoFactor(challenge: $ch, code: $c) { ${SESSION} } }`,
      { ch: asked.errors?.[0].extensions?.challenge, c: await generate({ secret, epoch: epoch + 30 }) },
    );
    expect(verified.data?.verifyTwoFactor.member.email).toBe(`kai@${domain}`);
  });
});
