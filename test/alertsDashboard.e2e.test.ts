import path from 'node:path';
import { feedbackImporter } from '@fi/feedback';
import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import type { Role } from '@fi/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { alertClock, history } from './helpers/alertHistory';
import { buildDashboardForTest, launchChromium } from './helpers/browser';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

// The Alerts page, the alert rules in Settings and a member's mail choices, in headless Chromium against a
// whole stack (as test/dashboard.e2e.test.ts); the Alerts page's screenshot goes to docs/screenshots/.
const SCREENSHOTS = path.resolve(__dirname, '../docs/screenshots');
const CREATE_THEME = `mutation($k: String!, $input: FeedbackThemeInput!) { createFeedbackTheme(apiKey: $k, input: $input) { id } }`;
const ALERTS = `query($k: String!) { feedbackAlerts(apiKey: $k) { id label } }`;

const clock = alertClock();
let stack: Stack;
let browser: Browser;
let build: { dir: string; remove(): void };
let members: MemberService;
let orgId: string;
let people = 0;

beforeAll(async () => {
  build = await buildDashboardForTest();
  stack = await startStack(
    { DASHBOARD_DIR: build.dir, COOKIE_SECURE: 'false', THEMES_INTERVAL_MS: '200', ALERTS_INTERVAL_MS: '300' },
    { databases: { feedback: ownDatabaseName('alertspage') }, clock: clock.now },
  );
  members = new MemberService(await openRepositories(await stack.connect('identity')));
  let key: string;
  ({ orgId, key } = await stack.createKey());
  await stack.gql(CREATE_THEME, { k: key, input: { label: 'Billing', keywords: ['invoice'] } });
  const importFeedback = await feedbackImporter(await stack.connect('feedback'), () => undefined);
  await importFeedback(orgId, history(clock.anchor, 12));
  await eventually(
    async () =>
      ((await stack.gql<{ feedbackAlerts: unknown[] }>(ALERTS, { k: key })).body.data?.feedbackAlerts.length ?? 0) > 0,
    90_000,
    'the Billing alert',
  );
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

async function signedIn(role: Role): Promise<Page> {
  people += 1;
  const email = `${role}-${people}-${Date.now()}@example.com`;
  const password = `correct horse ${people} battery staple`;
  await members.add(OPERATOR, orgId, { email, name: `${role} ${people}`, role, password });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: stack.gateway.url });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  return page;
}

describe('the Alerts page', () => {
  test('when a member opens Alerts, then the open alert shows with its counts and examples; acknowledged, it moves to Acknowledged', async () => {
    const page = await signedIn('member');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    const open = page.getByRole('region', { name: 'Open alerts' });
    const row = open.getByRole('row', { name: /Billing/ });
    await row.waitFor();
    await row.getByText('12 items today against 1.5 a day before').waitFor();
    expect(await row.getByRole('link', { name: /^Invoice/ }).count()).toBe(2);
    expect(await row.getByRole('link', { name: 'Billing' }).getAttribute('href')).toMatch(/^\/feedback\?theme=th_/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'alerts.png') });

    await row.getByRole('button', { name: 'Acknowledge Billing' }).click();
    await page.getByRole('status').getByText('"Billing" is acknowledged').waitFor();
    await page.getByText('No open alerts').waitFor();
    await page.getByRole('link', { name: 'Acknowledged' }).click();
    await page
      .getByRole('region', { name: 'Acknowledged alerts' })
      .getByRole('row', { name: /Billing/ })
      .waitFor();
    expect(page.url()).toMatch(/\?show=acknowledged$/);
  });

  test('when an admin changes the rules, then they are saved; a viewer reads them without a way to change them', async () => {
    const admin = await signedIn('admin');
    await admin.goto('/settings/alerts');
    const items = admin.getByLabel('At least this many items');
    await items.waitFor();
    expect(await items.inputValue()).toBe('5');
    await items.fill('6');
    await admin.getByLabel("Time zone of the organization's days").fill('Europe/Paris');
    await admin.getByRole('button', { name: 'Save rules' }).click();
    await admin.getByText('The alert rules are saved').waitFor();
    await admin.reload();
    await admin.getByLabel('At least this many items').waitFor();
    expect(await admin.getByLabel('At least this many items').inputValue()).toBe('6');
    expect(await admin.getByLabel("Time zone of the organization's days").inputValue()).toBe('Europe/Paris');

    await admin.getByLabel("Time zone of the organization's days").fill('Mars/Olympus');
    await admin.getByRole('button', { name: 'Save rules' }).click();
    await admin
      .getByRole('alert')
      .getByText(/timeZone must be an IANA time zone/)
      .waitFor();

    const viewer = await signedIn('viewer');
    await viewer.goto('/settings/alerts');
    await viewer.getByLabel('At least this many items').waitFor();
    expect(await viewer.getByLabel('At least this many items').isDisabled()).toBe(true);
    expect(await viewer.getByRole('button', { name: 'Save rules' }).count()).toBe(0);
  });

  test('when a member opts in to the weekly digest in their profile, then the choice is kept', async () => {
    const page = await signedIn('viewer');
    await page.goto('/settings/profile');
    const digest = page.getByLabel('Email me the weekly digest', { exact: false });
    await digest.waitFor();
    expect(await digest.isChecked()).toBe(false);
    await digest.check();
    await eventually(async () => !(await digest.isDisabled()), 10_000, 'the choice saved');
    await page.reload();
    await page.getByLabel('Email me the weekly digest', { exact: false }).waitFor();
    expect(await page.getByLabel('Email me the weekly digest', { exact: false }).isChecked()).toBe(true);
    expect(await page.getByLabel('Email me when an alert opens or closes').isChecked()).toBe(false);
  });
});
