import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '@fi/cli/embedded';
import { MemberService, openRepositories, OPERATOR, type IdentityRepositories } from '@fi/identity';
import { buildDashboardForTest, launchChromium } from './helpers/browser';
import { cli } from './helpers/cli';
import { LocalOidcProvider } from './helpers/sso/localOidcProvider';
import { startStack, type Stack } from './helpers/stack';

// A person signs in through a real OpenID Provider on loopback in headless Chromium, as they would with
// Okta or Entra ID: the sign-in page, the provider, the callback page, the application. The pages'
// screenshots go to docs/screenshots/ (docs/sso.md).
const SCREENSHOTS = path.resolve(__dirname, '../docs/screenshots');
const PASSWORD = 'correct horse battery staple';

let build: Awaited<ReturnType<typeof buildDashboardForTest>>;
let provider: LocalOidcProvider;
let stack: Stack;
let browser: Browser;
let repositories: IdentityRepositories;
let origin: string;

beforeAll(async () => {
  build = await buildDashboardForTest();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  provider = await LocalOidcProvider.start([`${origin}/auth/oidc/callback`]);
  // The stack's identity service and this file's CLI seal client secrets with the same key.
  Object.assign(process.env, { SSO_SECRET_KEY: randomBytes(32).toString('hex'), SSO_ALLOW_LOOPBACK_HTTP: 'true' });
  stack = await startStack(
    {
      DASHBOARD_DIR: build.dir,
      COOKIE_SECURE: 'false',
      PUBLIC_URL: origin,
      SSO_SECRET_KEY: process.env.SSO_SECRET_KEY,
      SSO_ALLOW_LOOPBACK_HTTP: 'true',
    },
    { gatewayPort: port },
  );
  repositories = await openRepositories(await stack.connect('identity'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await provider?.stop();
  build?.remove();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: origin });
  return context.newPage();
}

test('when a new person signs in with SSO, then the provider sends them back signed in as a new member, and their owner sees the settings', async () => {
  const domain = `${randomUUID().slice(0, 8)}.example.com`;
  const { orgId } = await stack.createKey();
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
  );
  expect(set.code).toBe(0);

  const page = await newPage();
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.getByLabel('Work email').fill(`noor@${domain}`);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'sso-sign-in.png') });
  await page.getByRole('button', { name: 'Continue' }).click();
  // The provider's pages, then the callback page, then the application.
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  expect(new URL(page.url()).origin).toBe(origin);
  await page.getByText(`noor@${domain} · member`).waitFor();
  const joined = (await repositories.members.list(orgId)).find((member) => member.email === `noor@${domain}`);
  expect(joined?.role).toBe('member');
  // A member is no owner: the single sign-on settings are not offered.
  expect(await page.getByRole('link', { name: 'Single sign-on' }).count()).toBe(0);

  const ownerEmail = `owner-${randomUUID().slice(0, 8)}@${domain}`;
  await new MemberService(repositories).add(OPERATOR, orgId, {
    email: ownerEmail,
    name: 'Owner',
    role: 'owner',
    password: PASSWORD,
  });
  const owner = await newPage();
  await owner.goto('/sign-in');
  await owner.getByLabel('Email').fill(ownerEmail);
  await owner.getByLabel('Password').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await owner.getByRole('link', { name: 'Single sign-on' }).click();
  await owner.getByRole('cell', { name: 'Verified' }).waitFor();
  expect(await owner.getByLabel('Issuer').inputValue()).toBe(provider.issuer);
  // The box shows what the service answered: checked once the requirement is stored.
  await owner.getByLabel(`SSO required for ${domain}`).click();
  await owner.getByRole('checkbox', { name: `SSO required for ${domain}`, checked: true }).waitFor();
  await owner.screenshot({ path: path.join(SCREENSHOTS, 'single-sign-on.png'), fullPage: true });
});

test('when an identity provider reads our SAML metadata at the web origin, then the gateway passes on the identity service answer', async () => {
  const response = await fetch(`${origin}/auth/saml/metadata`);
  expect(response.status).toBe(200);
  expect(await response.text()).toContain(`entityID="${origin}/auth/saml/metadata"`);
  // The assertion consumer takes a form only: anything else is refused, not served the application.
  const json = await fetch(`${origin}/auth/saml/acs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(json.status).toBe(415);
});
