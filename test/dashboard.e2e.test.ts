import path from 'node:path';
import { loggedLink, LogSink } from './helpers/logSink';
import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import { ThemeStore } from '@fi/feedback';
import type { Role } from '@fi/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { buildDashboardForTest, launchChromium } from './helpers/browser';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, GET_FEEDBACK, LIST_CONTACTS, LIST_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { FAST_WEBHOOKS, LIST_ENDPOINTS } from './helpers/webhookQueries';

// The web application in Debian's headless Chromium against a whole stack on loopback: the gateway
// serves the built page on the API's origin. Controls are found by role and label, as people and
// screen readers find them. Each page's screenshot goes to docs/screenshots/ (docs/dashboard.md).
const SCREENSHOTS = path.resolve(__dirname, '../docs/screenshots');
const ITEM_THEMES =
  'query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { themes { id label curated } } }';

let stack: Stack;
let browser: Browser;
let build: { dir: string; remove(): void };
let members: MemberService;
let orgId: string;
/** An API key of the members' organization, as an application of theirs would use /graphql. */
let orgKey: string;
let origin: string;
let people = 0;
const logs = new LogSink();

/** The page a mailed link opens, on this test's origin. */
async function mailedLink(email: string, purpose: 'invitation' | 'password reset'): Promise<string> {
  const { pathname, search } = await loggedLink(logs, email, purpose);
  return `${pathname}${search}`;
}

beforeAll(async () => {
  build = await buildDashboardForTest();
  // AUTH_CACHE_TTL_MS=0: a revoked key is refused at once, so the test need not wait out the cache.
  // Webhooks may go to a receiver on loopback (the Webhooks page's test), as the webhook tests allow.
  // The service logs: in development the identity service logs single-use links instead of mailing them.
  // THEMES_INTERVAL_MS=1000: a merge of themes shows within a second or two, not the default 20.
  stack = await startStack(
    {
      DASHBOARD_DIR: build.dir,
      COOKIE_SECURE: 'false',
      AUTH_CACHE_TTL_MS: '0',
      THEMES_INTERVAL_MS: '1000',
      // The Zendesk pull added from the Integrations page asks a local address (nothing answers there).
      ZENDESK_BASE_URL: 'http://127.0.0.1:9/{subdomain}',
      ...FAST_WEBHOOKS,
    },
    { logSink: logs },
  );
  origin = stack.gateway.url;
  members = new MemberService(await openRepositories(await stack.connect('identity')));
  ({ orgId, key: orgKey } = await stack.createKey());
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  build?.remove();
});

async function addMember(role: Role) {
  people += 1;
  const email = `${role}-${people}-${Date.now()}@example.com`;
  const password = `correct horse ${people} battery staple`;
  const name = `${role[0].toUpperCase()}${role.slice(1)} ${people}`;
  await members.add(OPERATOR, orgId, { email, name, role, password });
  return { email, password, name };
}

const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: origin });
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, person: { email: string; password: string }) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });

/** What the page's own script could send: a same-origin request carrying the session cookie. */
function adminRequest(page: Page, query: string, variables: Record<string, unknown>, csrfToken: string | null) {
  return page.evaluate(
    async ({ query, variables, csrfToken }) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (csrfToken) headers['x-csrf-token'] = csrfToken;
      const response = await fetch('/admin/graphql', {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as {
        data?: Record<string, unknown> | null;
        errors?: Array<{ message: string; extensions?: { code?: string } }>;
      };
    },
    { query, variables, csrfToken },
  );
}

async function csrfTokenOf(page: Page): Promise<string> {
  const answer = await adminRequest(page, '{ me { csrfToken } }', {}, null);
  return (answer.data?.me as { csrfToken: string }).csrfToken;
}

const CREATE_KEY = 'mutation($name: String!) { createApiKey(name: $name) { key } }';

test('a page without a session leads to sign-in, and back to that page after it', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await page.goto('/settings/members');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/sign-in');
  await screenshot(page, 'sign-in');

  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toContain('Invalid email or password');

  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Members' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/settings/members');
  await page.getByRole('link', { name: 'Settings' }).first().waitFor();
});

test('a sign-in link whose next address leads to another host (/\\host) lands on this application instead', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  // The browser reads `/\evil.example` as `//evil.example`: another host.
  await page.goto(`/sign-in?next=${encodeURIComponent('/\\evil.example/x')}`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  expect(new URL(page.url()).origin).toBe(origin);
  expect(new URL(page.url()).pathname).toBe('/settings/api-keys');
});

test('an owner generates a key that works on /graphql, then revokes it and it is refused', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();

  await page.getByRole('button', { name: 'Generate API key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Zapier export');
  await expect(dialog.getByRole('checkbox', { name: /Read-only/ }).isChecked()).resolves.toBe(false);
  await screenshot(page, 'generate-api-key');
  await dialog.getByRole('button', { name: 'Generate' }).click();

  const field = dialog.getByLabel('New API key');
  await field.waitFor();
  await expect(field.isEditable()).resolves.toBe(false);
  await dialog.getByRole('button', { name: 'Copy' }).waitFor();
  const key = await field.inputValue();
  expect(key).toMatch(/^fik_/);
  await screenshot(page, 'new-api-key');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const works = await stack.gql(LIST_FEEDBACK, { apiKey: key, take: 1 });
  expect(works.body.errors).toBeUndefined();

  const row = page.getByRole('row', { name: /Zapier export/ });
  await row.waitFor();
  await expect(row.textContent()).resolves.toContain(owner.email);
  // The list shows the use just made (its time is written once a minute at most, possibly after the answer).
  await eventually(
    async () => {
      await page.reload();
      await row.waitFor();
      return !(await row.textContent())?.includes('Never');
    },
    20_000,
    'the key list to show its last use',
  );
  await screenshot(page, 'api-keys');

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.textContent()).resolves.toContain('Zapier export');
  await screenshot(page, 'revoke-api-key');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await row.getByText(/^Revoked/).waitFor();
  await expect(row.getByRole('button', { name: 'Revoke' }).count()).resolves.toBe(0);

  const refused = await stack.gql(LIST_FEEDBACK, { apiKey: key, take: 1 });
  expect(refused.body.errors?.[0]).toMatchObject({
    message: 'Invalid API key',
    extensions: { code: 'UNAUTHENTICATED' },
  });
});

test('a viewer is offered no key controls, and the service refuses one a viewer asks for anyway', async () => {
  const viewer = await addMember('viewer');
  const page = await newPage();
  await signIn(page, viewer);
  await page.getByText('Only owners and admins can see and create API keys').waitFor();
  await expect(page.getByRole('button', { name: 'Generate API key' }).count()).resolves.toBe(0);

  const answer = await adminRequest(page, CREATE_KEY, { name: 'sneaky' }, await csrfTokenOf(page));
  expect(answer.errors?.[0]).toMatchObject({
    message: 'Only owners and admins can create API keys',
    extensions: { code: 'FORBIDDEN' },
  });
});

test('a state-changing request without the CSRF token is refused, the same with it goes through', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await signIn(page, owner);

  const without = await adminRequest(page, CREATE_KEY, { name: 'no token' }, null);
  expect(without.errors?.[0]).toMatchObject({
    message: expect.stringContaining('Missing or invalid CSRF token'),
    extensions: { code: 'FORBIDDEN' },
  });
  const forged = await adminRequest(page, CREATE_KEY, { name: 'forged token' }, 'x'.repeat(43));
  expect(forged.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  const token = await csrfTokenOf(page);
  const withToken = await adminRequest(page, CREATE_KEY, { name: 'with token' }, token);
  expect(withToken.errors).toBeUndefined();
  const listed = await adminRequest(page, '{ apiKeys { name } }', {}, token);
  const names = (listed.data?.apiKeys as Array<{ name: string }>).map((key) => key.name);
  expect(names).toContain('with token');
  expect(names).not.toEqual(expect.arrayContaining(['no token']));
  expect(names).not.toEqual(expect.arrayContaining(['forged token']));
});

test('an owner changes a role and removes a member, each read back from the service', async () => {
  const owner = await addMember('owner');
  const colleague = await addMember('viewer');
  const leaving = await addMember('member');
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('link', { name: 'Members' }).click();
  const role = page.getByLabel(`Role of ${colleague.email}`);
  await role.selectOption('admin');
  await page.reload();
  await expect(role.inputValue()).resolves.toBe('admin');

  const row = page.getByRole('row', { name: new RegExp(leaving.name) });
  await row.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await row.waitFor({ state: 'detached' });
  await page.reload();
  await page.getByRole('row', { name: new RegExp(colleague.name) }).waitFor();
  await expect(page.getByRole('row', { name: new RegExp(leaving.name) }).count()).resolves.toBe(0);
  await screenshot(page, 'members');
});

test('signing out ends the session: pages lead to sign-in again', async () => {
  const owner = await addMember('owner');
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page, owner);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await screenshot(page, 'api-keys-phone');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.goto('/settings/api-keys');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/sign-in');
  await expect(csrfTokenOf(page).catch(() => null)).resolves.toBeNull();
});

const CREATE_CONTACT = 'mutation($input: ContactInput!) { createContact(input: $input) { id } }';

/** The organization's contacts whose name, email or company holds `text`, read through the public API. */
async function publicContacts(text: string) {
  const answer = await stack.gql<{
    contactItems: { items: Array<{ id: string; name: string; email: string | null; company: string | null }> };
  }>(LIST_CONTACTS, { apiKey: orgKey, search: text });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.contactItems.items;
}

test("an owner adds, finds, edits and deletes a contact in the page, and /graphql reads each change with the organization's key", async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('heading', { name: 'Contacts' }).waitFor();

  const unique = `ada-${Date.now()}`;
  await page.getByRole('button', { name: 'New contact' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill(`not an email`);
  await form.getByRole('button', { name: 'Save' }).click();
  // The service's rule, named at its field.
  await expect(form.getByRole('alert').textContent()).resolves.toBe('Email must be a valid email address');
  await expect(form.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
  await form.getByLabel('Email').fill(`${unique}@example.com`);
  await form.getByLabel('Company').fill('Analytical Engines');
  await screenshot(page, 'new-contact');
  await form.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'detached' });

  const row = page.getByRole('row', { name: /Ada Lovelace/ });
  await row.waitFor();
  await expect(row.textContent()).resolves.toContain('Analytical Engines');
  expect(await publicContacts(unique)).toEqual([
    expect.objectContaining({ name: 'Ada Lovelace', email: `${unique}@example.com`, company: 'Analytical Engines' }),
  ]);

  // The search is in the address: a reload (or a bookmark) shows the same view.
  await page.getByLabel('Search contacts').fill(unique);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL((url) => url.searchParams.get('q') === unique);
  await page.reload();
  await row.waitFor();
  await expect(page.getByLabel('Search contacts').inputValue()).resolves.toBe(unique);
  await screenshot(page, 'contacts');

  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await expect(edit.getByLabel('Company').inputValue()).resolves.toBe('Analytical Engines');
  await edit.getByLabel('Company').fill('Difference Engines');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'detached' });
  await row.getByText('Difference Engines').waitFor();
  expect(await publicContacts(unique)).toEqual([
    expect.objectContaining({ name: 'Ada Lovelace', company: 'Difference Engines' }),
  ]);

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.textContent()).resolves.toContain('Ada Lovelace');
  await screenshot(page, 'delete-contact');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText(`No contacts match "${unique}".`).waitFor();
  expect(await publicContacts(unique)).toEqual([]);
});

test('a CSV import shows every problem of every row before anything is written, then imports a file without problems', async () => {
  const owner = await addMember('admin');
  const page = await newPage();
  await signIn(page, owner);
  await page.goto('/accounts');
  await page.getByRole('heading', { name: 'Accounts' }).waitFor();
  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog');
  const unique = `csv-${Date.now()}`;
  const file = (text: string) => ({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

  await dialog
    .getByLabel('CSV file')
    .setInputFiles(
      file(
        `name,email,company\nGrace,grace@${unique}.example,Navy\n,broken,${unique}\nAlan,alan@${unique},${unique}\n`,
      ),
    );
  const problems = dialog.getByRole('region', { name: 'Problems in the file' });
  await problems.waitFor();
  await expect(problems.getByRole('row').count()).resolves.toBe(4);
  await expect(problems.textContent()).resolves.toContain('must be a valid email address');
  await expect(dialog.getByRole('button', { name: /^Import \d/ }).count()).resolves.toBe(0);
  await screenshot(page, 'import-contacts');
  expect(await publicContacts(unique)).toEqual([]);

  await dialog
    .getByLabel('CSV file')
    .setInputFiles(
      file(`name,email,company\nGrace,grace@${unique}.example,Navy\nAlan,alan@${unique}.example,Bletchley\n`),
    );
  await dialog.getByText('All 2 rows are ready to import.').waitFor();
  await dialog.getByRole('button', { name: 'Import 2 contacts' }).click();
  await dialog.getByText('Imported 2 contacts.').waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
  expect((await publicContacts(unique)).map((contact) => contact.name).sort()).toEqual(['Alan', 'Grace']);
});

test('a viewer is offered no contact controls, and the contacts service refuses a contact a viewer sends anyway', async () => {
  const viewer = await addMember('viewer');
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page, viewer);
  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.getByText('Viewers can read contacts').waitFor();
  await expect(page.getByRole('button', { name: 'New contact' }).count()).resolves.toBe(0);
  await screenshot(page, 'contacts-phone');

  const name = `Viewer's ${Date.now()}`;
  const answer = await adminRequest(page, CREATE_CONTACT, { input: { name } }, await csrfTokenOf(page));
  expect(answer.errors?.[0]).toMatchObject({
    message: 'Only owners, admins and members can change contacts',
    extensions: { code: 'FORBIDDEN' },
  });
  expect(await publicContacts(name)).toEqual([]);
});

test('a contact sent without the CSRF token is refused and not written, the same with it is', async () => {
  const member = await addMember('member');
  const page = await newPage();
  await signIn(page, member);
  const name = `Token check ${Date.now()}`;
  const without = await adminRequest(page, CREATE_CONTACT, { input: { name } }, null);
  expect(without.errors?.[0]).toMatchObject({
    message: expect.stringContaining('Missing or invalid CSRF token'),
    extensions: { code: 'FORBIDDEN' },
  });
  expect(await publicContacts(name)).toEqual([]);
  const withToken = await adminRequest(page, CREATE_CONTACT, { input: { name } }, await csrfTokenOf(page));
  expect(withToken.errors).toBeUndefined();
  expect((await publicContacts(name)).map((contact) => contact.name)).toEqual([name]);
});

interface PublicFeedback {
  id: string;
  title: string;
  status: string;
}

/** Feedback of the members' organization, added through the public API as an application would. */
async function addFeedback(
  items: Array<{ title: string; content: string; sentiment?: string; source?: string; email?: string }>,
): Promise<PublicFeedback[]> {
  const added: PublicFeedback[] = [];
  for (const item of items) {
    const answer = await stack.gql<{ addFeedbackItem: PublicFeedback }>(ADD_FEEDBACK, {
      apiKey: orgKey,
      input: { source: 'email', ...item },
    });
    expect(answer.body.errors).toBeUndefined();
    added.push(answer.body.data!.addFeedbackItem);
  }
  return added;
}

/** An item's status as the public API reads it with the organization's key. */
async function publicStatus(id: string): Promise<string | undefined> {
  const answer = await stack.gql<{ feedbackItem: PublicFeedback }>(GET_FEEDBACK, { apiKey: orgKey, id });
  return answer.body.data?.feedbackItem.status;
}

const CHANGE_FEEDBACK_STATUS =
  'mutation($id: String!, $status: String!) { changeFeedbackStatus(id: $id, status: $status) { id status } }';

test('a member triages the inbox with the mouse and the keyboard, each status read back through /graphql, and opens an item with its similar items', async () => {
  const member = await addMember('member');
  const unique = `triage${Date.now()}`;
  const [older, newer, newest] = await addFeedback([
    {
      title: `CSV export times out ${unique}`,
      content: 'The CSV export times out for large workspaces',
      sentiment: 'negative',
      email: `ada@${unique}.example`,
    },
    {
      title: `CSV export is slow ${unique}`,
      content: 'Our CSV export times out every time on large workspaces',
      sentiment: 'negative',
    },
    { title: `Love the new editor ${unique}`, content: 'The editor is lovely', sentiment: 'positive' },
  ]);
  const page = await newPage();
  await signIn(page, member);
  await page.getByRole('link', { name: 'Feedback', exact: true }).click();
  await page.getByRole('heading', { name: 'Feedback', level: 1 }).waitFor();

  // Search and filters are in the address: a reload shows the same view.
  await page.getByLabel('Search feedback').fill(unique);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL((url) => url.searchParams.get('q') === unique);
  await page.reload();
  const rows = page.getByRole('region', { name: 'Feedback items' }).getByRole('row');
  await eventually(async () => (await rows.count()) === 4, 20_000, 'four rows');

  await page.getByRole('checkbox', { name: `Select "${newest.title}"` }).check();
  await page.getByRole('button', { name: 'Mark read' }).click();
  await page.getByText('1 item marked read.').waitFor();
  expect(await publicStatus(newest.id)).toBe('read');

  // The keyboard: j moves to the first item, again to the second; x selects it; a archives it.
  await page.getByRole('heading', { name: 'Keyboard shortcuts' }).click();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await expect(page.getByRole('checkbox', { name: `Select "${newer.title}"` }).isChecked()).resolves.toBe(true);
  await page.keyboard.press('a');
  await page.getByText('1 item archived.').waitFor();
  expect(await publicStatus(newer.id)).toBe('archived');
  expect(await publicStatus(older.id)).toBe('unread');

  await page.getByLabel('Status', { exact: true }).selectOption('archived');
  await page.waitForURL((url) => url.searchParams.get('status') === 'archived' && url.searchParams.get('q') === unique);
  await eventually(async () => (await rows.count()) === 2, 20_000, 'two rows');
  await page.getByLabel('Status', { exact: true }).selectOption('');
  await eventually(async () => (await rows.count()) === 4, 20_000, 'four rows');
  await screenshot(page, 'feedback-inbox');

  await page.getByRole('link', { name: older.title }).click();
  await page.getByRole('heading', { name: older.title }).waitFor();
  await page.getByRole('link', { name: newer.title }).waitFor();
  await page.getByText(`none with ada@${unique}.example`).waitFor();
  await page.getByRole('button', { name: 'Archive' }).click();
  await page.getByText('Archived', { exact: true }).waitFor();
  expect(await publicStatus(older.id)).toBe('archived');
  // A person's sentiment: chosen on the page, kept as the person's, read back through /graphql.
  await page.getByLabel('Sentiment', { exact: true }).selectOption('positive');
  await page.getByText('given by a person').waitFor();
  const corrected = await stack.gql<{ feedbackItem: { sentiment: string; sentimentSource: string } }>(
    'query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { sentiment sentimentSource } }',
    { k: orgKey, id: older.id },
  );
  expect(corrected.body.data?.feedbackItem).toEqual({ sentiment: 'positive', sentimentSource: 'person' });

  // The similar item is the same request: merged into this one, confirmed, then read back through /graphql.
  await page.getByRole('button', { name: `Merge “${newer.title}” into this item` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
  await page.getByRole('heading', { name: 'Merged into this item' }).waitFor();
  const merged = await stack.gql<{ feedbackItem: { duplicateOf: { id: string } | null } }>(
    'query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { duplicateOf { id } } }',
    { k: orgKey, id: newer.id },
  );
  expect(merged.body.data?.feedbackItem.duplicateOf).toEqual({ id: older.id });
  await screenshot(page, 'feedback-item');
  await page.getByRole('button', { name: `Unmerge “${newer.title}”` }).click();
  await eventually(
    async () => (await page.getByRole('heading', { name: 'Merged into this item' }).count()) === 0,
    20_000,
    'the duplicate put back',
  );
  expect(await publicStatus(newer.id)).toBe('archived');
});

test('insights draw volume, sentiment, sources and terms as charts for a range kept in the address', async () => {
  const owner = await addMember('owner');
  await addFeedback([
    {
      title: 'Billing page crashes',
      content: 'The billing page crashes when I open invoices',
      sentiment: 'negative',
      source: 'support',
    },
    // A term of negative feedback is one said in two items at least: the test's own, not the earlier tests'.
    {
      title: 'Billing page blank',
      content: 'The billing page stays blank after login',
      sentiment: 'negative',
      source: 'support',
    },
    { title: 'Great onboarding', content: 'Onboarding was smooth and quick', sentiment: 'positive', source: 'survey' },
  ]);
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('link', { name: 'Insights' }).click();
  const volume = page.getByRole('img', { name: /Feedback volume per day, by sentiment/ });
  await volume.waitFor();
  expect(await volume.locator('rect').count()).toBeGreaterThan(0);
  await page.getByRole('img', { name: /Share of feedback by sentiment/ }).waitFor();
  await expect(
    page.getByRole('img', { name: /Feedback by source/ }).getAttribute('aria-labelledby'),
  ).resolves.toBeTruthy();
  await page.getByRole('img', { name: /terms in negative feedback/ }).waitFor();

  await page.getByLabel('Range', { exact: true }).selectOption('90d');
  await page.waitForURL((url) => url.searchParams.get('range') === '90d');
  await page.reload();
  await page.getByRole('img', { name: /Feedback volume per week, by sentiment/ }).waitFor();
  await expect(page.getByLabel('Range', { exact: true }).inputValue()).resolves.toBe('90d');
  await page.getByLabel('Range', { exact: true }).selectOption('30d');
  await volume.waitFor();
  await screenshot(page, 'insights');

  const phone = await newPage({ width: 390, height: 844 });
  await signIn(phone, owner);
  await phone.goto('/insights');
  await phone.getByRole('img', { name: /Feedback volume per day/ }).waitFor();
  await screenshot(phone, 'insights-phone');
});

test('a member merges two themes on the insights page, the feedback service keeps them together, and Undo separates them', async () => {
  const member = await addMember('member');
  const [zephyr] = await addFeedback(
    ['fails at night', 'skips attachments', 'is slow to start', 'needs a retry button'].map((text) => ({
      title: `Zephyr sync ${text}`,
      content: `The zephyr sync ${text}.`,
    })),
  );
  const [quokka] = await addFeedback(
    ['is blank', 'shows old numbers', 'could be resizable', 'flickers'].map((text) => ({
      title: `Quokka widget ${text}`,
      content: `The quokka widget ${text}.`,
    })),
  );
  const themeOf = async (id: string) =>
    (
      await stack.gql<{ feedbackItem: { themes: Array<{ id: string; label: string }> } }>(ITEM_THEMES, {
        k: orgKey,
        id,
      })
    ).body.data?.feedbackItem.themes[0] ?? null;
  let into: { id: string; label: string } | null = null;
  let from: { id: string; label: string } | null = null;
  await eventually(
    async () => Boolean((into = await themeOf(zephyr.id)) && (from = await themeOf(quokka.id))),
    60_000,
    'both themes computed',
  );

  const page = await newPage();
  await signIn(page, member);
  await page.goto('/insights');
  await page.getByText('Merge themes').click();
  await page.getByLabel('Merge', { exact: true }).selectOption({ label: from!.label });
  await page.getByLabel('into', { exact: true }).selectOption({ label: into!.label });
  await page.getByRole('button', { name: 'Merge…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `“${from!.label}” is merged into “${into!.label}”` })
    .waitFor();
  await eventually(async () => (await themeOf(quokka.id))?.id === into!.id, 30_000, 'the merged theme computed');

  await page.getByRole('button', { name: 'Undo' }).click();
  await eventually(async () => (await themeOf(quokka.id))?.id === from!.id, 30_000, 'the theme separated again');
  expect((await themeOf(zephyr.id))?.id).toBe(into!.id);
});

const THEME_MATCHES =
  'query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { themeMatches { theme { id } assignedBy } } }';
const CURATED_THEME =
  'query($k: String!, $id: String!) { feedbackTheme(apiKey: $k, id: $id) { id label curated count parent { id } } }';

test('a member curates themes on the Themes page: adds one, nests another under it, moves an item and accepts a suggestion', async () => {
  const member = await addMember('member');
  const walrus = await addFeedback(
    ['jams on page two', 'prints blank pages', 'needs a driver update', 'is offline again'].map((text) => ({
      title: `Walrus printer ${text}`,
      content: `The walrus printer ${text}.`,
    })),
  );
  const narwhal = await addFeedback(
    ['misses my meetings', 'shows the wrong week', 'could sync faster', 'loses colours'].map((text) => ({
      title: `Narwhal calendar ${text}`,
      content: `The narwhal calendar ${text}.`,
    })),
  );
  const gql = async <T>(query: string, variables: Record<string, unknown>) =>
    (await stack.gql<T>(query, { k: orgKey, ...variables })).body.data!;
  let suggestion: { id: string; label: string } | null = null;
  await eventually(
    async () => Boolean((suggestion = await themeOfItem(gql, walrus[0].id))),
    60_000,
    'the walrus items in a suggested theme',
  );
  // The chat model's name of the suggestion, as its naming writes it (this stack has no model): the label
  // stays, the one-line summary shows under it.
  const summary = 'Customers report that the walrus printer jams, prints blank pages and goes offline.';
  expect(
    await new ThemeStore(await stack.connect('feedback')).nameByModel(
      orgId,
      suggestion!.id,
      suggestion!.label,
      summary,
    ),
  ).toBe(true);

  const page = await newPage();
  await signIn(page, member);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Themes' }).click();
  const addForm = page.getByRole('form', { name: 'Add a theme' });
  await addForm.getByLabel('Label', { exact: true }).fill('Narwhal calendar');
  await addForm.getByLabel('Keywords (comma-separated)').fill('narwhal, calendar');
  await addForm.getByRole('button', { name: 'Add theme' }).click();
  const taxonomy = page.getByRole('region', { name: 'Taxonomy' });
  await taxonomy.getByRole('button', { name: 'Narwhal calendar', exact: true }).waitFor();
  await addForm.getByLabel('Label', { exact: true }).fill('Narwhal reminders');
  await addForm.getByLabel('Under').selectOption({ label: 'Narwhal calendar' });
  await addForm.getByRole('button', { name: 'Add theme' }).click();
  await taxonomy.getByRole('button', { name: 'Narwhal reminders', exact: true }).waitFor();

  const suggestions = page.getByRole('region', { name: 'Suggestions' });
  await suggestions.getByRole('listitem').filter({ hasText: suggestion!.label }).getByText(summary).waitFor();
  await suggestions.getByRole('button', { name: `Accept ${suggestion!.label}` }).click();
  await taxonomy.getByRole('button', { name: suggestion!.label, exact: true }).waitFor();
  const accepted = await gql<{ feedbackTheme: { id: string; curated: boolean } }>(CURATED_THEME, {
    id: suggestion!.id,
  });
  expect(accepted.feedbackTheme).toMatchObject({ id: suggestion!.id, curated: true });

  // The calendar items get the new theme at the service's next pass; then one is moved to the accepted theme.
  // The curated theme, not a suggestion of the same name (the automatic themes may name the same items so).
  let calendar: { id: string } | undefined;
  await eventually(
    async () =>
      Boolean(
        (calendar = (await themesOfItem(gql, narwhal[1].id)).find(
          (theme) => theme.curated && theme.label === 'Narwhal calendar',
        )),
      ),
    60_000,
    'the calendar items assigned to the new curated theme',
  );
  await taxonomy.getByRole('button', { name: 'Narwhal calendar', exact: true }).click();
  const items = page.getByRole('region', { name: 'Items of Narwhal calendar' });
  const title = narwhal[1].title;
  await items.getByLabel(`Move “${title}” to`).selectOption({ label: suggestion!.label });
  await items
    .getByRole('form', { name: `Move “${title}”` })
    .getByRole('button', { name: 'Move' })
    .click();
  await eventually(
    async () => {
      const { feedbackItem } = await gql<{
        feedbackItem: { themeMatches: Array<{ theme: { id: string }; assignedBy: string }> };
      }>(THEME_MATCHES, { id: narwhal[1].id });
      return (
        feedbackItem.themeMatches[0]?.theme.id === suggestion!.id &&
        feedbackItem.themeMatches[0].assignedBy === 'person' &&
        feedbackItem.themeMatches.every((match) => match.theme.id !== calendar!.id)
      );
    },
    10_000,
    'the moved item in the accepted theme',
  );
  await page.getByRole('heading', { name: 'Themes', level: 1 }).scrollIntoViewIfNeeded();
  await screenshot(page, 'themes');
  // The inbox filters by the curated theme (listed first, without "(suggested)").
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feedback' }).click();
  await page.getByLabel('Theme').selectOption({ label: 'Narwhal calendar' });
  await page.getByRole('link', { name: walrus[0].title }).waitFor({ state: 'detached' });
  await page.getByRole('link', { name: narwhal[0].title }).waitFor();
});

async function themeOfItem(
  gql: <T>(query: string, variables: Record<string, unknown>) => Promise<T>,
  id: string,
): Promise<{ id: string; label: string } | null> {
  return (await themesOfItem(gql, id))[0] ?? null;
}

async function themesOfItem(
  gql: <T>(query: string, variables: Record<string, unknown>) => Promise<T>,
  id: string,
): Promise<Array<{ id: string; label: string; curated: boolean }>> {
  const { feedbackItem } = await gql<{
    feedbackItem: { themes: Array<{ id: string; label: string; curated: boolean }> };
  }>(ITEM_THEMES, { id });
  return feedbackItem.themes;
}

test('a viewer reads the inbox without triage controls, and the feedback service refuses a status change a viewer sends anyway', async () => {
  const viewer = await addMember('viewer');
  const [item] = await addFeedback([{ title: `Viewer check ${Date.now()}`, content: 'Please keep me unread' }]);
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page, viewer);
  await page.goto('/feedback');
  await page.getByText('Viewers can read feedback').waitFor();
  await expect(page.getByRole('button', { name: 'Mark read' }).count()).resolves.toBe(0);
  await screenshot(page, 'feedback-phone');

  const answer = await adminRequest(
    page,
    CHANGE_FEEDBACK_STATUS,
    { id: item.id, status: 'archived' },
    await csrfTokenOf(page),
  );
  expect(answer.errors?.[0]).toMatchObject({
    message: 'Only owners, admins and members can change feedback',
    extensions: { code: 'FORBIDDEN' },
  });
  expect(await publicStatus(item.id)).toBe('unread');
});

test('an owner adds a webhook endpoint (its secret shown once), sees a status change and a test event delivered with their attempts, redelivers one, rotates the secret, and removes it', async () => {
  const owner = await addMember('owner');
  const receiver = await WebhookReceiver.start();
  try {
    const page = await newPage();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByRole('checkbox', { name: /Status changed/ }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await dialog.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'webhook-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const listed = await stack.gql<{
      webhookEndpoints: Array<{ id: string; url: string; events: string[]; secret: string | null }>;
    }>(LIST_ENDPOINTS, { k: orgKey });
    const endpoint = listed.body.data!.webhookEndpoints.find((candidate) => candidate.url === receiver.url)!;
    expect(endpoint).toMatchObject({ events: ['feedback.created', 'feedback.status_changed'], secret: null });

    const [item] = await addFeedback([{ title: `Hooked ${Date.now()}`, content: 'Tell the receiver' }]);
    const changed = await adminRequest(
      page,
      CHANGE_FEEDBACK_STATUS,
      { id: item.id, status: 'read' },
      await csrfTokenOf(page),
    );
    expect(changed.errors).toBeUndefined();
    await eventually(
      () => receiver.received.some((request) => request.json.type === 'feedback.status_changed'),
      20_000,
      'the status change delivered',
    );

    await page.getByRole('link', { name: `Deliveries to ${receiver.url}` }).click();
    await page.waitForURL((url) => url.searchParams.get('endpoint') === endpoint.id);
    const deliveries = page.getByRole('region', { name: `Deliveries to ${receiver.url}` });
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (
          (await deliveries.getByText('feedback.status_changed', { exact: true }).count()) > 0 &&
          (await deliveries.getByText(/HTTP 200/).count()) >= 2
        );
      },
      20_000,
      'both deliveries listed with their attempts',
    );

    // A test event goes through the normal signed delivery, and is listed; then it is sent again on request.
    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await row.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('A test event is on its way').waitFor();
    const testDelivery = deliveries.getByRole('listitem').filter({ hasText: 'webhook.test' }).first();
    await testDelivery.getByText('delivered', { exact: true }).waitFor({ timeout: 20_000 });
    const tests = () => receiver.ofType('webhook.test');
    expect(tests()).toHaveLength(1);
    expect(() => new Webhook(secret).verify(tests()[0].body, tests()[0].headers)).not.toThrow();
    await testDelivery.getByRole('button', { name: 'Redeliver' }).click();
    await eventually(() => tests().length === 2, 20_000, 'the test event redelivered');
    expect(tests()[1].headers['webhook-id']).toBe(tests()[0].headers['webhook-id']);
    await testDelivery
      .getByText(/HTTP 200/)
      .nth(1)
      .waitFor();
    await screenshot(page, 'webhooks');

    // A new secret, confirmed, then shown once.
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await page.getByRole('dialog').getByLabel('New signing secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await row.getByText(/the replaced secret also signs until/).waitFor();

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    const after = await stack.gql<{ webhookEndpoints: Array<{ url: string }> }>(LIST_ENDPOINTS, { k: orgKey });
    expect(after.body.data!.webhookEndpoints.map((listed) => listed.url)).not.toContain(receiver.url);
  } finally {
    await receiver.close();
  }
});

test('an owner connects a webhook (its URL and secret shown once), sees the event it sent become an item, pauses it and removes it; a member is told who manages integrations', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('link', { name: 'Integrations' }).click();
  await page.getByRole('button', { name: 'Add integration' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Platform').selectOption('webhook');
  await dialog.getByLabel('Name').fill('Support portal');
  await dialog.getByRole('button', { name: 'Add integration' }).click();
  const url = await dialog.getByLabel('URL to give the platform').inputValue();
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  expect(url).toMatch(/\/hooks\/[0-9a-f]{40}$/);
  expect(secret).toMatch(/^whsec_/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Support portal' });
  await row.getByText('active').waitFor();

  const body = JSON.stringify({
    title: `Portal ${Date.now()}`,
    content: 'Sent from the portal',
    externalId: 'portal-1',
  });
  const at = new Date();
  const id = `msg_${Date.now()}`;
  const sent = await fetch(`${stack.integrationsReceiver.url}${new URL(url).pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    },
    body,
  });
  expect(sent.status).toBe(200);
  await row.getByRole('link', { name: 'Events of Support portal' }).click();
  const events = page.getByRole('region', { name: 'Events of Support portal' });
  await eventually(
    async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await events.getByRole('link', { name: 'Item made' }).count()) === 1;
    },
    20_000,
    'the event made into an item',
  );
  await row.getByRole('cell', { name: '1', exact: true }).waitFor();
  await screenshot(page, 'integrations');

  await row.getByRole('button', { name: 'Pause' }).click();
  await row.getByText('paused').waitFor();
  await row.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await row.waitFor({ state: 'detached' });

  const member = await addMember('member');
  const memberPage = await newPage();
  await signIn(memberPage, member);
  await memberPage.getByRole('link', { name: 'Integrations' }).click();
  await memberPage.getByText('Owners and admins connect platforms').waitFor();
  expect(await memberPage.getByRole('button', { name: 'Add integration' }).count()).toBe(0);
});

test('an owner connects a Zendesk pull going back a week from the Integrations page: the service stores its subdomain and window', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('link', { name: 'Integrations' }).click();
  await page.getByRole('button', { name: 'Add integration' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Platform').selectOption('zendesk-pull');
  await dialog.getByLabel('Name').fill('Acme tickets');
  await dialog.getByLabel('Zendesk subdomain').fill('acme-support');
  await dialog.getByLabel('API token').fill('zendesk-oauth-token');
  await dialog.getByLabel('Days the first sync goes back').fill('7');
  await dialog.getByRole('button', { name: 'Add integration' }).click();
  await dialog.getByText('reads the last 7 days').waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('row').filter({ hasText: 'Acme tickets' }).waitFor();
  // What the form sent, as the integrations service keeps it (the pull itself: integrationsPull.e2e).
  const stored = await (
    await stack.connect('integrations')
  )
    .collection('connections')
    .findOne({ orgId, name: 'Acme tickets' });
  expect(stored).toMatchObject({ kind: 'zendesk', settings: { subdomain: 'acme-support', backfillDays: 7 } });
});

test('an owner generates a key and finds it in the audit log filtered by that action and actor, the filters kept in the address', async () => {
  const owner = await addMember('owner');
  const page = await newPage();
  await signIn(page, owner);
  await page.getByRole('button', { name: 'Generate API key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Audited key');
  await dialog.getByRole('button', { name: 'Generate' }).click();
  await dialog.getByLabel('New API key').waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('heading', { name: 'Audit log' }).waitFor();
  await page.getByLabel('Action').selectOption('key.created');
  await page.getByLabel('Actor').fill(owner.email);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.waitForURL(
    (url) => url.searchParams.get('action') === 'key.created' && url.searchParams.get('actor') === owner.email,
  );
  const entries = page
    .getByRole('region', { name: 'Audit log entries' })
    .getByRole('row')
    .filter({ hasText: 'key.created' });
  // The action alone applies at once: its entries (other owners' keys too) show until the actor's answer replaces them.
  await eventually(async () => (await entries.count()) === 1, 20_000, "the owner's one key.created entry");
  await expect(entries.first().textContent()).resolves.toContain(owner.email);
  await screenshot(page, 'audit-log');

  // The address is the view: opened again, it shows the same filters and entries.
  await page.reload();
  await entries.first().waitFor();
  await expect(page.getByLabel('Action').inputValue()).resolves.toBe('key.created');
  await expect(page.getByLabel('Actor').inputValue()).resolves.toBe(owner.email);
  await page.getByLabel('Action').selectOption('member.removed');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.getByText('No entries match these filters.').waitFor();
});

test('an invited person accepts in the page and is signed in; a forgotten password is reset through its link, and the new one signs in', async () => {
  const owner = await addMember('owner');
  const invited = `invited-${Date.now()}@example.com`;
  const page = await newPage();
  await signIn(page, owner);
  await page.goto('/settings/members');
  await page.getByLabel('Invite by email').fill(invited);
  await page.getByRole('form', { name: 'Invite a member' }).getByRole('combobox').selectOption('member');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText(`An invitation is on its way to ${invited}.`).waitFor();

  const guest = await newPage();
  await guest.goto(await mailedLink(invited, 'invitation'));
  await guest.getByLabel('Name').fill('Invited Person');
  await guest.getByLabel('Password').fill('a long enough password 1');
  await guest.getByRole('button', { name: 'Accept invitation' }).click();
  await guest.getByRole('heading', { name: 'Settings' }).waitFor();
  await guest.getByText(`${invited} · member`).waitFor();

  const forgetful = await newPage();
  await forgetful.goto('/sign-in');
  await forgetful.getByRole('link', { name: 'Forgot your password?' }).click();
  await forgetful.getByLabel('Email').fill(invited);
  await forgetful.getByRole('button', { name: 'Send reset link' }).click();
  await forgetful.getByText('Check your email').waitFor();
  await forgetful.goto(await mailedLink(invited, 'password reset'));
  await forgetful.getByLabel('New password', { exact: true }).fill('another long password 2');
  await forgetful.getByRole('button', { name: 'Set password' }).click();
  await forgetful.getByText('Password changed').waitFor();
  await signIn(forgetful, { email: invited, password: 'another long password 2' });
});

test('an owner finds a sent invitation among the pending ones, with who sent it, and cancels it: its link no longer works', async () => {
  const owner = await addMember('owner');
  const invited = `pending-${Date.now()}@example.com`;
  const page = await newPage();
  await signIn(page, owner);
  await page.goto('/settings/members');
  await page.getByLabel('Invite by email').fill(invited);
  await page.getByRole('form', { name: 'Invite a member' }).getByRole('combobox').selectOption('viewer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const row = page.getByRole('region', { name: 'Pending invitations' }).getByRole('row', { name: invited });
  await row.waitFor();
  await expect(row.textContent()).resolves.toContain(owner.email);
  await row.getByRole('button', { name: `Cancel the invitation of ${invited}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel invitation' }).click();
  await row.waitFor({ state: 'detached' });

  const guest = await newPage();
  await guest.goto(await mailedLink(invited, 'invitation'));
  await guest.getByLabel('Name').fill('Too Late');
  await guest.getByLabel('Password').fill('a long enough password 1');
  await guest.getByRole('button', { name: 'Accept invitation' }).click();
  await guest.getByText('This link is invalid, used or expired; ask for a new one').waitFor();
});
