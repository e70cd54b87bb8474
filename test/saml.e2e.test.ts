import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './helpers/cli';
import { newOrgId } from './helpers/stack';
import {
  SESSION,
  PUBLIC_URL,
  START,
  newDomain,
  startSsoIdentity,
  type IdentityPage,
  type SessionAnswer,
} from './helpers/sso/ssoIdentity';
import { TestSamlIdp, type AssertionOptions } from './helpers/sso/testSamlIdp';

const ACS = `${PUBLIC_URL}/auth/saml/acs`;
const SP_ENTITY_ID = `${PUBLIC_URL}/auth/saml/metadata`;
const FINISH = `mutation($t: String!) { finishSamlSignIn(ticket: $t) { ${SESSION} } }`;

let idp: TestSamlIdp;
let sso: Awaited<ReturnType<typeof startSsoIdentity>>;

beforeAll(async () => {
  idp = TestSamlIdp.create();
  sso = await startSsoIdentity();
});
afterAll(() => sso?.identity.close());

/** An organization whose owner set the test's identity provider as its SAML connection, with a verified domain. */
async function organizationWithSaml(domain: string) {
  const { orgId, owner } = await sso.organizationWithOwner(domain);
  const set = await owner.gql<{ setSamlConnection: Record<string, unknown> }>(
    'mutation($x: String) { setSamlConnection(metadataXml: $x) { protocol idpEntityId spEntityId redirectUri defaultRole } }',
    { x: idp.metadata() },
  );
  expect(set.errors).toBeUndefined();
  expect(set.data?.setSamlConnection).toEqual({
    protocol: 'saml',
    idpEntityId: idp.entityId,
    spEntityId: SP_ENTITY_ID,
    redirectUri: ACS,
    defaultRole: 'member',
  });
  await sso.addDomain(orgId, owner, domain, true);
  return { orgId, owner };
}

/** Starts a sign-in in `page`: the identity provider's address with our AuthnRequest and RelayState. */
async function start(page: IdentityPage, email: string): Promise<string> {
  const started = await page.gql<{ startSsoSignIn: { url: string } }>(START, { e: email });
  expect(started.errors).toBeUndefined();
  return started.data!.startSsoSignIn.url;
}

/** The provider's page posting its answer to our ACS; returns the completion page's ticket. */
async function post(form: { SAMLResponse: string; RelayState: string }): Promise<string> {
  const response = await fetch(`${sso.identity.url}/auth/saml/acs`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/auth/saml/complete`);
  return location.searchParams.get('ticket') ?? '';
}

const finish = (page: IdentityPage, ticket: string) =>
  page.gql(FINISH, { t: ticket }) as Promise<SessionAnswer<'finishSamlSignIn'>>;

async function signIn(email: string, options: Partial<AssertionOptions> = {}) {
  const page = sso.page();
  const url = await start(page, email);
  return { page, url, answer: await finish(page, await post(idp.answer(url, { email, ...options }))) };
}

describe('signing in with SAML 2.0 through an identity provider of the test', () => {
  test('when a signed assertion names a new person of a verified domain, then they land with a session as a member', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSaml(domain);
    const { page, url, answer } = await signIn(`ada@${domain}`);
    expect(new URL(url).origin + new URL(url).pathname).toBe(idp.ssoUrl);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.finishSamlSignIn).toMatchObject({
      member: { email: `ada@${domain}`, role: 'member' },
      organization: { id: orgId },
    });
    expect((await page.gql<{ me: { member: { email: string } } }>(`{ me { ${SESSION} } }`)).data?.me.member.email).toBe(
      `ada@${domain}`,
    );
    const audit = await sso.repositories.audit.page(orgId, {}, 0, 50);
    expect(audit.items.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['sso.member_provisioned', 'sso.signed_in']),
    );
  });

  test.each([
    ['tampered after signing', (domain: string) => ({ tamperTo: `mallory@${domain}` }), /signature/i],
    ['for another audience', () => ({ audience: 'https://another.example.com/sp' }), /audience/i],
    ['expired', () => ({ notOnOrAfter: new Date(Date.now() - 3_600_000) }), /has expired or is not valid yet/],
    ['for another recipient', () => ({ recipient: 'https://another.example.com/acs' }), /Recipient/],
    ['in response to another request', () => ({ inResponseTo: '_not-our-request' }), /InResponseTo/i],
  ])(
    'when the assertion is %s, then the sign-in is refused with a clear message and audited',
    async (_, spoil, pattern) => {
      const domain = newDomain();
      const { orgId } = await organizationWithSaml(domain);
      const { answer } = await signIn(`grace@${domain}`, spoil(domain));
      expect(answer.errors?.[0].message).toMatch(/^The identity provider's answer was refused: /);
      expect(answer.errors?.[0].message).toMatch(pattern);
      expect(answer.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'TOKEN_REJECTED' });
      expect(await sso.refusals(orgId)).toEqual([expect.stringMatching(/^TOKEN_REJECTED: /)]);
      expect((await sso.repositories.members.list(orgId)).map((m) => m.email)).not.toContain(`grace@${domain}`);
    },
  );

  test('when one answer is posted twice at once, then one signs in and the other is refused as replayed', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSaml(domain);
    const page = sso.page();
    const form = idp.answer(await start(page, `lin@${domain}`), { email: `lin@${domain}` });
    const tickets = await Promise.all([post(form), post(form)]);
    const answers = await Promise.all(tickets.map((ticket) => finish(page, ticket)));
    expect(answers.filter((answer) => answer.data?.finishSamlSignIn)).toHaveLength(1);
    expect(answers.find((answer) => answer.errors)?.errors?.[0].extensions?.reason).toBe('REPLAYED');
    // A completion ticket is good once too.
    expect((await finish(page, tickets[0])).errors?.[0].extensions?.reason).toBe('UNKNOWN_ATTEMPT');
    expect(await sso.refusals(orgId)).toEqual(expect.arrayContaining([expect.stringMatching(/^REPLAYED/)]));
  });

  test('when an assertion id comes back in an answer to a new sign-in, then it is refused as replayed', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSaml(domain);
    const first = await signIn(`mo@${domain}`, { assertionId: `_a-${domain}` });
    expect(first.answer.errors).toBeUndefined();
    const again = await signIn(`mo@${domain}`, { assertionId: `_a-${domain}` });
    expect(again.answer.errors?.[0]).toMatchObject({
      message: 'This assertion was already used; start again with "Sign in with SSO"',
      extensions: { reason: 'REPLAYED' },
    });
    expect(await sso.refusals(orgId)).toEqual([expect.stringMatching(/^REPLAYED/)]);
  });

  test('when the completion page is opened in another browser, then it is refused', async () => {
    const domain = newDomain();
    const { orgId } = await organizationWithSaml(domain);
    const url = await start(sso.page(), `kim@${domain}`);
    const answer = await finish(sso.page(), await post(idp.answer(url, { email: `kim@${domain}` })));
    expect(answer.errors?.[0].extensions?.reason).toBe('OTHER_BROWSER');
    expect(await sso.refusals(orgId)).toEqual([expect.stringMatching(/^OTHER_BROWSER/)]);
  });

  test('when an identity provider asks for our metadata, then it names our entity id and assertion consumer', async () => {
    const response = await fetch(`${sso.identity.url}/auth/saml/metadata`);
    expect(response.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await response.text();
    expect(xml).toContain(`entityID="${SP_ENTITY_ID}"`);
    expect(xml).toMatch(new RegExp(`AssertionConsumerService[^>]+Location="${ACS}"`));
    expect(xml).toContain('WantAssertionsSigned="true"');
  });

  test.each([
    ['not XML', 'not xml at all', 'The SAML metadata is not well-formed XML'],
    [
      'without a signing certificate',
      () => idp.metadata().replace(/<md:KeyDescriptor[\s\S]*?<\/md:KeyDescriptor>/, ''),
      'The SAML metadata has no signing certificate (KeyDescriptor use="signing")',
    ],
  ])('when the metadata given is %s, then it is refused naming the problem', async (_, metadata, message) => {
    const { owner } = await sso.organizationWithOwner(newDomain());
    const answer = await owner.gql('mutation($x: String) { setSamlConnection(metadataXml: $x) { protocol } }', {
      x: typeof metadata === 'function' ? metadata() : metadata,
    });
    expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_REQUEST' } });
  });
});

test('when an operator sets SAML from a metadata file, then its people sign in and show names both sides', async () => {
  const domain = newDomain();
  const orgId = newOrgId();
  await sso.repositories.organizations.findOrCreate(orgId, { name: orgId, tier: 'pro' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fi-saml-metadata-'));
  try {
    const file = path.join(dir, 'idp.xml');
    writeFileSync(file, idp.metadata());
    const set = await cli(
      'sso',
      'set',
      '--org',
      orgId,
      '--saml-metadata',
      file,
      '--domain',
      domain,
      '--default-role',
      'viewer',
    );
    expect(set).toMatchObject({
      code: 0,
      stderr: expect.stringContaining(`the ACS URL ${ACS} and the entity id ${SP_ENTITY_ID}`),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { answer } = await signIn(`ola@${domain}`);
  expect(answer.data?.finishSamlSignIn.member).toEqual({ email: `ola@${domain}`, role: 'viewer' });
  const shown = await cli('sso', 'show', '--org', orgId);
  expect(shown.stdout).toEqual(
    expect.arrayContaining([
      `protocol\tsaml`,
      `idp entity id\t${idp.entityId}`,
      `acs url\t${ACS}`,
      `sp entity id\t${SP_ENTITY_ID}`,
    ]),
  );
  expect(
    await cli('sso', 'set', '--org', orgId, '--saml-metadata', '/nonexistent/idp.xml', '--domain', domain),
  ).toMatchObject({
    code: 2,
    stderr: '--saml-metadata /nonexistent/idp.xml cannot be read: ENOENT',
  });
});
