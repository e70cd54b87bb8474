import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import type { Role } from '@fi/shared';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildDashboardForTest, launchChromium } from './helpers/browser';
import { startStack, type Stack } from './helpers/stack';

// Settings, SCIM tokens and Two-factor sign-in, and the sign-in page's second step, in headless Chromium
// against a whole stack on loopback. Controls are found by role and label; screenshots go to docs/screenshots/.
const SCREENSHOTS = path.resolve(__dirname, '../docs/screenshots');

let stack: Stack;
let browser: Browser;
let build: { dir: string; remove(): void };
let members: MemberService;
let orgId: string;
let people = 0;

beforeAll(async () => {
  build = await buildDashboardForTest();
  stack = await startStack(
    { DASHBOARD_DIR: build.dir, COOKIE_SECURE: 'false', TWO_FACTOR_SECRET_KEY: randomBytes(32).toString('hex') },
    { worker: false },
  );
  members = new MemberService(await openRepositories(await stack.connect('identity')));
  ({ orgId } = await stack.createKey());
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  build?.remove();
});

const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: stack.gateway.url });
  contexts.push(context);
  return context.newPage();
}

async function addMember(role: Role) {
  const email = `${role}-${(people += 1)}-${Date.now()}@example.com`;
  const password = `correct horse ${people} battery staple`;
  await members.add(OPERATOR, orgId, { email, name: `${role} ${people}`, role, password });
  return { email, password };
}

async function enterPassword(page: Page, person: { email: string; password: string }) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The code the person's authenticator app shows now, for the key the setup showed. */
const currentCode = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Scans the setup's QR code as a person's app would (its key, shown beside it), and enters the app's code. */
async function scanAndConfirm(page: Page, button: string): Promise<string> {
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  const secret = (await page.getByText('Cannot scan?').locator('code').textContent()) ?? '';
  await page.getByLabel('Code from the app').fill(await currentCode(secret));
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
  return secret;
}

test('when a member turns two-factor on in Settings, then the next sign-in asks for the code, and a recovery code works', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await enterPassword(page, owner);
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await page.getByRole('link', { name: 'Two-factor sign-in' }).click();
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'two-factor-setup.png') });
  const secret = await scanAndConfirm(page, 'Turn on');
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByText('Two-factor sign-in is on. 10 recovery codes left.').waitFor();

  const again = await newPage();
  await enterPassword(again, owner);
  await again.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
  await again.getByLabel('Code').fill('000000');
  await again.getByRole('button', { name: 'Verify' }).click();
  await expect(again.getByRole('alert').textContent()).resolves.toContain('That code is not right');
  await again.getByLabel('Code').fill(codes[0]);
  await again.getByRole('button', { name: 'Verify' }).click();
  await again.getByRole('heading', { name: 'Settings' }).waitFor();

  // And with the app's code, on a third sign-in (the next step's code: the current one turned it on).
  const third = await newPage();
  await enterPassword(third, owner);
  await third.getByLabel('Code').fill(await currentCode(secret, 30));
  await third.getByRole('button', { name: 'Verify' }).click();
  await third.getByRole('heading', { name: 'Settings' }).waitFor();
});

test('when an owner requires two-factor, then a member without it sets it up on the sign-in page before their session opens', async () => {
  const owner = await addMember('owner');
  const member = await addMember('member');
  const ownerPage = await newPage();
  await enterPassword(ownerPage, owner);
  await ownerPage.getByRole('heading', { name: 'Settings' }).waitFor();
  await ownerPage.getByRole('link', { name: 'Two-factor sign-in' }).click();
  // A click, not check(): the box shows the service's answer, which comes a moment after the click.
  await ownerPage.getByLabel(/Require two-factor sign-in for everyone/).click();
  await ownerPage.getByText('Your organization requires it.').waitFor();

  const page = await newPage();
  await enterPassword(page, member);
  await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
  await scanAndConfirm(page, 'Turn on and sign in');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await ownerPage.getByLabel(/Require two-factor sign-in for everyone/).click();
  await ownerPage.getByText('Two-factor sign-in is off.', { exact: true }).waitFor();
});

test('when an owner creates a SCIM token in Settings, then it is shown once, listed by its hint, and revoked', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await enterPassword(page, owner);
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await page.getByRole('link', { name: 'SCIM tokens' }).click();
  await page.getByRole('button', { name: 'Create SCIM token' }).click();
  await page.getByLabel('Name').fill('Okta');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const token = await page.getByRole('textbox', { name: 'New SCIM token' }).inputValue();
  expect(token).toMatch(/^fis_/);
  const answer = await fetch(`${stack.gateway.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  await page.getByRole('button', { name: 'Done' }).click();
  const table = page.getByRole('table');
  await table.getByRole('rowheader', { name: 'Okta' }).waitFor();
  expect(await table.textContent()).not.toContain(token.slice(8));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'scim-tokens.png') });
  await table.getByRole('button', { name: 'Revoke' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await table
    .getByText(/^Revoked/)
    .first()
    .waitFor();
  const refused = await fetch(`${stack.gateway.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status).toBe(401);
});
