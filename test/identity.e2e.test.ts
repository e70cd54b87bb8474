import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadIdentityConfig, MemberService, openRepositories, OPERATOR, startIdentityService } from '@fi/identity';
import { loadGatewayConfig, startGateway } from '@fi/gateway';
import {
  createLogger,
  IDENTITY_HEADER,
  parseSigningKeys,
  signIdentity,
  type Role,
  type RunningHttpServer,
} from '@fi/shared';
import { loggedLink, LogSink } from './helpers/logSink';
import { eventually } from './helpers/processes';
import { LIST_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';
import { signedIdentityFor } from './helpers/keys';
import type { Connection } from 'mongoose';

let stack: Stack;
let members: MemberService;
let identityDb: Connection;
const logs = new LogSink();
beforeAll(async () => {
  stack = await startStack({}, { logSink: logs });
  identityDb = await stack.connect('identity');
  members = new MemberService(await openRepositories(identityDb));
});
afterAll(() => stack.close());

const INVALID = { message: 'Invalid API key', extensions: { code: 'UNAUTHENTICATED' } };
let people = 0;

/** A member of `orgId` with `role`, added as an operator would; returns how to sign in. */
async function addMember(orgId: string, role: Role) {
  people += 1;
  const email = `${role}-${people}-${Date.now()}@example.com`;
  const password = `correct horse ${people} battery`;
  await members.add(OPERATOR, orgId, { email, name: `${role} ${people}`, role, password });
  return { email, password };
}

interface AdminAnswer<T> {
  status: number;
  setCookie: string | null;
  body: { data?: T | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

/** A same-origin page of the web application: keeps the session cookie and sends the CSRF token it was given. */
class Browser {
  cookie = '';
  csrf = '';
  constructor(
    private readonly url: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options: { csrf?: boolean } = {},
  ): Promise<AdminAnswer<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...this.extraHeaders };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && options.csrf !== false) headers['x-csrf-token'] = this.csrf;
    const response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    return { status: response.status, setCookie, body: (await response.json()) as AdminAnswer<T>['body'] };
  }

  async signIn(email: string, password: string) {
    const answer = await this.gql<{ signIn: { csrfToken: string; member: { id: string; role: string } } }>(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken member { id role } } }',
      { e: email, p: password },
    );
    if (answer.body.data?.signIn) this.csrf = answer.body.data.signIn.csrfToken;
    return answer;
  }
}

const adminUrl = () => `${stack.gateway.url}/admin/graphql`;
const CREATE_KEY =
  'mutation($n: String!, $r: Boolean) { createApiKey(name: $n, readOnly: $r) { key apiKey { id name hint readOnly createdBy lastUsedAt revokedAt } } }';
const AUDIT = '{ auditLog(take: 50) { total items { action actor target address at } } }';

describe('subgraphs trust only the identity the gateway signed', () => {
  const read = (headers: Record<string, string>) =>
    stack.gql(LIST_FEEDBACK, { apiKey: 'key_anything' }, { url: `${stack.subgraphs.feedback.url}/graphql`, headers });

  test.each([
    ['no signature', () => ({})],
    [
      'an expired one',
      () => ({
        [IDENTITY_HEADER]: signIdentity(
          parseSigningKeys(process.env.IDENTITY_SIGNING_KEYS!),
          [],
          1_000,
          Date.now() - 60_000,
        ),
      }),
    ],
    [
      'one signed with a retired key',
      () => ({ [IDENTITY_HEADER]: signIdentity(parseSigningKeys(`retired:${'r'.repeat(40)}`), [], 600_000) }),
    ],
  ])('when a subgraph is called with %s, then it refuses before running anything', async (_, headers) => {
    const { key } = await stack.createKey();
    const signed = signedIdentityFor(key);
    // The same signed identity with a valid signature is answered: the refusal is about the signature.
    expect(
      (
        await stack.gql(
          LIST_FEEDBACK,
          { apiKey: key },
          { url: `${stack.subgraphs.feedback.url}/graphql`, headers: signed },
        )
      ).body.errors,
    ).toBeUndefined();
    const response = await read(headers());
    expect(response.body.errors).toEqual([expect.objectContaining(INVALID)]);
    expect(response.body.data ?? null).toBeNull();
  });
});

describe('raw API keys stay in the gateway', () => {
  let proxy: http.Server;
  let gateway: RunningHttpServer;
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  beforeAll(async () => {
    // Stands between the gateway and the feedback subgraph and records what the gateway sends.
    const target = new URL(stack.subgraphs.feedback.url);
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        seen.push({ headers: req.headers, body: body.toString() });
        const forward = http.request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway(
      loadGatewayConfig({
        MONGODB_URI: stack.mongodbUri,
        PORT: '0',
        AUTH_CACHE_TTL_MS: '0',
        ...stack.identityEnv,
        FEEDBACK_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/graphql`,
        CONTACTS_URL: `${stack.subgraphs.contacts.url}/graphql`,
        ACCOUNTS_URL: `${stack.subgraphs.accounts.url}/graphql`,
        INTEGRATIONS_URL: `${stack.subgraphs.integrations.url}/graphql`,
      }),
      createLogger('gateway', 'silent'),
    );
  });
  afterAll(async () => {
    await gateway.close(1_000);
    await new Promise((resolve) => proxy.close(resolve));
  });

  test('when keys come as variables, inline, and through an entity fetch, then subgraphs receive only key ids and a signed identity', async () => {
    const { key, id } = await stack.createKey();
    const url = `${gateway.url}/graphql`;
    const answers = await Promise.all([
      stack.gql(LIST_FEEDBACK, { apiKey: key }, { url }),
      stack.gql(`{ feedbackItems(apiKey: "${key}", take: 1) { total } }`, undefined, { url }),
      stack.gql(
        'query($k: String!) { contactItems(apiKey: $k, take: 1) { items { totalFeedbacks } } }',
        { k: key },
        { url },
      ),
    ]);
    for (const answer of answers) expect(answer.body.errors).toBeUndefined();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const request of seen) {
      expect(JSON.stringify(request)).not.toContain(key);
      expect(request.headers[IDENTITY_HEADER]).toMatch(/^v1\.test\./);
    }
    expect(seen.some((request) => request.body.includes(id))).toBe(true);
  });
});

describe('the admin API through the gateway', () => {
  test('when the owner signs in, then the session cookie is HttpOnly, SameSite=Strict and Secure, and a key made with the CSRF token works at once', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const browser = new Browser(adminUrl());
    const signedIn = await browser.signIn(owner.email, owner.password);
    expect(signedIn.body.errors).toBeUndefined();
    expect(signedIn.setCookie).toMatch(
      /^fi_session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/,
    );
    expect(
      (await browser.gql<{ me: { member: { email: string } } }>('{ me { member { email } organization { id } } }')).body
        .data?.me.member.email,
    ).toBe(owner.email);

    const withoutToken = await browser.gql(CREATE_KEY, { n: 'ci' }, { csrf: false });
    expect(withoutToken.body.errors?.[0]).toMatchObject({
      extensions: { code: 'FORBIDDEN' },
      message: expect.stringContaining('CSRF'),
    });
    const created = await browser.gql<{
      createApiKey: { key: string; apiKey: { id: string; createdBy: string; hint: string } };
    }>(CREATE_KEY, { n: 'ci' });
    expect(created.body.errors).toBeUndefined();
    const { key, apiKey } = created.body.data!.createApiKey;
    expect(apiKey).toMatchObject({ createdBy: owner.email, hint: key.slice(0, 8) });
    expect((await stack.gql(LIST_FEEDBACK, { apiKey: key })).body.errors).toBeUndefined();

    // Listed with its last use, never with the secret.
    await eventually(
      async () => {
        const listed = await browser.gql<{ apiKeys: Array<{ id: string; lastUsedAt: string | null }> }>(
          '{ apiKeys { id hint lastUsedAt } }',
        );
        expect(JSON.stringify(listed.body)).not.toContain(key);
        const listedKey = listed.body.data?.apiKeys.find((k) => k.id === apiKey.id);
        return listedKey !== undefined && listedKey.lastUsedAt !== null;
      },
      20_000,
      'the last use of the key to be recorded',
    );

    expect(
      (await browser.gql('mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id: apiKey.id })).body.errors,
    ).toBeUndefined();
    expect((await stack.gql(LIST_FEEDBACK, { apiKey: key })).body.errors).toEqual([expect.objectContaining(INVALID)]);
  });

  test('when a viewer or a member asks to create a key or read the audit log, then the service refuses', async () => {
    const { orgId } = await stack.createKey();
    for (const role of ['viewer', 'member'] as const) {
      const person = await addMember(orgId, role);
      const browser = new Browser(adminUrl());
      expect((await browser.signIn(person.email, person.password)).body.errors).toBeUndefined();
      const refused = await browser.gql(CREATE_KEY, { n: 'mine' });
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          message: 'Only owners and admins can create API keys',
          extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
        }),
      ]);
      expect((await browser.gql(AUDIT)).body.errors?.[0].message).toBe('Only owners and admins can read the audit log');
    }
  });

  test('when nobody is signed in, then admin operations ask for a sign-in', async () => {
    const answer = await new Browser(adminUrl()).gql('{ members { email } }');
    expect(answer.body.errors?.[0]).toMatchObject({
      message: 'Sign in first',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  test('when an email is unknown or the password wrong, then the answer is the same', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const unknown = await new Browser(adminUrl()).signIn(`nobody-${Date.now()}@example.com`, owner.password);
    const wrong = await new Browser(adminUrl()).signIn(owner.email, 'not the password at all');
    expect(unknown.body.errors).toEqual(wrong.body.errors);
    expect(wrong.body.errors?.[0]).toMatchObject({
      message: 'Invalid email or password',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  test('when a member signs out, signs in again, or leaves the session idle or past its end, then the old session no longer works', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const me = '{ me { member { email } } }';
    const browser = new Browser(adminUrl());
    await browser.signIn(owner.email, owner.password);
    const first = browser.cookie;
    // Signing in again rotates the session: the cookie from before is dead.
    await browser.signIn(owner.email, owner.password);
    expect(browser.cookie).not.toBe(first);
    expect((await withCookie(first).gql<{ me: unknown }>(me)).body.data?.me).toBeNull();
    expect((await browser.gql<{ me: unknown }>(me)).body.data?.me).not.toBeNull();

    const sessions = (await stack.connect('identity')).collection('sessions');
    const idle = new Browser(adminUrl());
    const memberId = (await idle.signIn(owner.email, owner.password)).body.data!.signIn.member.id;
    await sessions.updateMany(
      { memberId, revokedAt: null },
      { $set: { lastSeenAt: new Date(Date.now() - 31 * 60_000) } },
    );
    expect((await idle.gql<{ me: unknown }>(me)).body.data?.me).toBeNull();
    const ended = new Browser(adminUrl());
    await ended.signIn(owner.email, owner.password);
    await sessions.updateMany({ memberId, revokedAt: null }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await ended.gql<{ me: unknown }>(me)).body.data?.me).toBeNull();

    const last = new Browser(adminUrl());
    await last.signIn(owner.email, owner.password);
    const beforeSignOut = last.cookie;
    const out = await last.gql('mutation { signOut }');
    expect(out.setCookie).toMatch(/^fi_session=; .*Max-Age=0/);
    expect((await withCookie(beforeSignOut).gql<{ me: unknown }>(me)).body.data?.me).toBeNull();
  });

  test('when roles change and members are removed, then the rules hold and the audit log records who did what, when and from where', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const colleague = await addMember(orgId, 'member');
    const browser = new Browser(adminUrl());
    await new Browser(adminUrl()).signIn(owner.email, 'wrong password, once');
    await browser.signIn(owner.email, owner.password);
    const list = await browser.gql<{ members: Array<{ id: string; email: string; role: string }> }>(
      '{ members { id email role } }',
    );
    const colleagueId = list.body.data!.members.find((m) => m.email === colleague.email)!.id;
    const ownerId = list.body.data!.members.find((m) => m.email === owner.email)!.id;

    const changeRole = 'mutation($id: ID!, $r: Role!) { changeRole(memberId: $id, role: $r) { role } }';
    expect((await browser.gql(changeRole, { id: colleagueId, r: 'admin' })).body.data).toEqual({
      changeRole: { role: 'admin' },
    });
    // The last owner cannot step down: an organization always keeps one.
    expect((await browser.gql(changeRole, { id: ownerId, r: 'admin' })).body.errors?.[0].message).toBe(
      'An organization keeps at least one owner',
    );
    const admin = new Browser(adminUrl());
    await admin.signIn(colleague.email, colleague.password);
    expect((await admin.gql(changeRole, { id: colleagueId, r: 'owner' })).body.errors?.[0].message).toBe(
      'Only owners can grant or change the owner role',
    );
    const created = await browser.gql<{ createApiKey: { apiKey: { id: string } } }>(CREATE_KEY, {
      n: 'audited',
      r: true,
    });
    const keyId = created.body.data!.createApiKey.apiKey.id;
    await browser.gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: keyId });
    expect(
      (await browser.gql('mutation($id: ID!) { removeMember(memberId: $id) }', { id: colleagueId })).body.data,
    ).toEqual({ removeMember: true });
    // A removed member's sessions end with them.
    expect((await admin.gql<{ me: unknown }>('{ me { csrfToken } }')).body.data?.me).toBeNull();

    const audit = await browser.gql<{
      auditLog: {
        items: Array<{ action: string; actor: string; target: string | null; address: string | null; at: string }>;
      };
    }>(AUDIT);
    const entries = audit.body.data!.auditLog.items;
    const find = (action: string) => entries.find((entry) => entry.action === action);
    expect(find('session.sign_in_failed')).toMatchObject({ actor: owner.email });
    expect(find('session.signed_in')).toMatchObject({
      actor: expect.any(String),
      address: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(find('member.role_changed')).toMatchObject({
      actor: owner.email,
      target: `${colleague.email}: member -> admin`,
    });
    expect(find('key.created')).toMatchObject({ actor: owner.email, target: keyId });
    expect(find('key.revoked')).toMatchObject({ actor: owner.email, target: keyId });
    expect(find('member.removed')).toMatchObject({ actor: owner.email, target: colleague.email });
    for (const entry of entries) expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 600_000);
  });

  test('when two owners demote or remove each other at the same instant, then one change is refused and the organization keeps an owner', async () => {
    const changes = {
      demote: 'mutation($id: ID!) { changeRole(memberId: $id, role: admin) { role } }',
      remove: 'mutation($id: ID!) { removeMember(memberId: $id) }',
    };
    // Several organizations at once, so a race between reading the owners and writing shows. Their owners
    // sign in one after the other: one address gets only a few password checks at a time.
    const pairs = [];
    for (const mutation of Object.values(changes).flatMap((m) => [m, m, m, m])) {
      const { orgId } = await stack.createKey();
      const owners = [await addMember(orgId, 'owner'), await addMember(orgId, 'owner')];
      const browsers = owners.map(() => new Browser(adminUrl()));
      const ids: string[] = [];
      for (const [i, owner] of owners.entries())
        ids.push((await browsers[i].signIn(owner.email, owner.password)).body.data!.signIn.member.id);
      pairs.push({ mutation, orgId, browsers, ids });
    }
    const outcomes = await Promise.all(
      pairs.map(async ({ mutation, orgId, browsers, ids }) => {
        const answers = await Promise.all([
          browsers[0].gql(mutation, { id: ids[1] }),
          browsers[1].gql(mutation, { id: ids[0] }),
        ]);
        return {
          succeeded: answers.filter((answer) => !answer.body.errors).length,
          owners: await identityDb.collection('members').countDocuments({ orgId, role: 'owner' }),
        };
      }),
    );
    expect(outcomes).toEqual(Array.from({ length: 8 }, () => ({ succeeded: 1, owners: 1 })));
  });

  test('when the audit log is filtered by action, actor and time range, then only the matching entries come, newest first; a bad filter is BAD_REQUEST naming it', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const admin = await addMember(orgId, 'admin');
    const ownerPage = new Browser(adminUrl());
    await ownerPage.signIn(owner.email, owner.password);
    const adminPage = new Browser(adminUrl());
    await adminPage.signIn(admin.email, admin.password);
    const keyOf = async (page: Browser, name: string) =>
      (await page.gql<{ createApiKey: { apiKey: { id: string } } }>(CREATE_KEY, { n: name, r: true })).body.data!
        .createApiKey.apiKey.id;
    const first = await keyOf(ownerPage, 'first');
    const second = await keyOf(adminPage, 'second');
    const third = await keyOf(ownerPage, 'third');

    type Entry = { action: string; actor: string; target: string | null; at: string };
    const FILTERED =
      'query($a: String, $who: String, $from: DateTime, $to: DateTime) { auditLog(action: $a, actor: $who, from: $from, to: $to) { total items { action actor target at } } }';
    const audit = async (variables: Record<string, unknown>) => {
      const answer = await ownerPage.gql<{ auditLog: { total: number; items: Entry[] } }>(FILTERED, variables);
      expect(answer.body.errors).toBeUndefined();
      return answer.body.data!.auditLog;
    };
    const created = await audit({ a: 'key.created' });
    // The organization's first key was made by an operator, before everything else.
    expect(created.items.map((entry) => entry.target).slice(0, 3)).toEqual([third, second, first]);
    expect(created.total).toBe(4);
    // An actor as typed (any case); both filters at once.
    expect(
      (await audit({ a: 'key.created', who: owner.email.toUpperCase() })).items.map((entry) => entry.target),
    ).toEqual([third, first]);
    expect((await audit({ who: admin.email })).items.map((entry) => entry.action)).toEqual([
      'key.created',
      'session.signed_in',
    ]);
    // [from, to): the second key's own instant up to the third's.
    const at = (target: string) => created.items.find((entry) => entry.target === target)!.at;
    expect(
      (await audit({ a: 'key.created', from: at(second), to: at(third) })).items.map((entry) => entry.target),
    ).toEqual([second]);
    expect(await audit({ a: 'member.removed' })).toEqual({ total: 0, items: [] });

    const actions = await ownerPage.gql<{ auditActions: string[] }>('{ auditActions }');
    expect(actions.body.data?.auditActions).toEqual(
      expect.arrayContaining(['key.created', 'key.revoked', 'session.signed_in']),
    );
    const refused = await ownerPage.gql(FILTERED, { a: 'key.exploded' });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('action must be one of'),
      extensions: { code: 'BAD_REQUEST', argument: 'action' },
    });
    const backwards = await ownerPage.gql(FILTERED, { from: at(third), to: at(first) });
    expect(backwards.body.errors?.[0]).toMatchObject({
      message: 'from must be before to',
      extensions: { code: 'BAD_REQUEST', argument: 'from' },
    });
  });
});

const linkToken = async (email: string, purpose: 'invitation' | 'password reset') =>
  (await loggedLink(logs, email, purpose)).searchParams.get('token') ?? '';

const INVITE = 'mutation($e: String!, $r: Role!) { inviteMember(email: $e, role: $r) { email role expiresAt } }';
const ACCEPT =
  'mutation($t: String!, $n: String!, $p: String!) { acceptInvitation(token: $t, name: $n, password: $p) { csrfToken member { email role } } }';
const RESET = 'mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) }';
const LINK_INVALID = 'This link is invalid, used or expired; ask for a new one';

describe('invitations and password resets by single-use link', () => {
  test('when an admin invites someone, then the link signs them up once, with the role given, and the audit log says so', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const viewer = await addMember(orgId, 'viewer');
    const browser = new Browser(adminUrl());
    await browser.signIn(owner.email, owner.password);
    const invited = `invited-${Date.now()}@example.com`;
    const sent = await browser.gql<{ inviteMember: { email: string; role: string; expiresAt: string } }>(INVITE, {
      e: invited,
      r: 'member',
    });
    expect(sent.body.data?.inviteMember).toMatchObject({ email: invited, role: 'member' });
    const token = await linkToken(invited, 'invitation');

    const newcomer = new Browser(adminUrl());
    const joined = await newcomer.gql<{ acceptInvitation: { member: { email: string; role: string } } }>(ACCEPT, {
      t: token,
      n: 'New Person',
      p: 'a long enough password',
    });
    expect(joined.body.data?.acceptInvitation.member).toEqual({ email: invited, role: 'member' });
    expect(joined.setCookie).toMatch(/^fi_session=[\w-]+; .*HttpOnly/);
    expect(
      (await newcomer.gql<{ me: { member: { email: string } } }>('{ me { member { email } } }')).body.data?.me.member
        .email,
    ).toBe(invited);
    const again = await new Browser(adminUrl()).gql(ACCEPT, {
      t: token,
      n: 'Someone Else',
      p: 'another long password',
    });
    expect(again.body.errors?.[0]).toMatchObject({ message: LINK_INVALID, extensions: { code: 'BAD_REQUEST' } });

    const asViewer = new Browser(adminUrl());
    await asViewer.signIn(viewer.email, viewer.password);
    expect(
      (await asViewer.gql(INVITE, { e: `x-${Date.now()}@example.com`, r: 'viewer' })).body.errors?.[0].message,
    ).toBe('Only owners and admins can invite members');

    const actions = (await browser.gql<{ auditLog: { items: Array<{ action: string; target: string }> } }>(AUDIT)).body
      .data!.auditLog.items;
    expect(actions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'member.invited', target: `${invited} as member` }),
        expect.objectContaining({ action: 'member.joined', target: invited }),
      ]),
    );
  });

  test('when the member who sent an invitation is removed or demoted below its role, then it stops working; the ones they may still send keep working', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const signedIn = async (person: { email: string; password: string }) => {
      const browser = new Browser(adminUrl());
      const answer = await browser.signIn(person.email, person.password);
      return { browser, id: answer.body.data!.signIn.member.id };
    };
    const invite = async (from: Browser, role: Role) => {
      const email = `invited-${role}-${people}-${Date.now()}@example.com`;
      people += 1;
      expect((await from.gql(INVITE, { e: email, r: role })).body.errors).toBeUndefined();
      return { email, token: await linkToken(email, 'invitation') };
    };
    const accept = ({ token }: { token: string }) =>
      new Browser(adminUrl()).gql(ACCEPT, { t: token, n: 'Invited', p: 'a long enough password' });
    const admin = await signedIn(await addMember(orgId, 'admin'));
    const coOwner = await signedIn(await addMember(orgId, 'owner'));
    const leaver = await addMember(orgId, 'admin');
    const byAdmin = await invite(admin.browser, 'member');
    const ownerByCoOwner = await invite(coOwner.browser, 'owner');
    const memberByCoOwner = await invite(coOwner.browser, 'member');
    const byLeaver = await invite((await signedIn(leaver)).browser, 'viewer');
    const { browser } = await signedIn(owner);
    const pending = async () =>
      (
        await browser.gql<{ invitations: Array<{ email: string }> }>('{ invitations { email } }')
      ).body.data!.invitations.map((invitation) => invitation.email);

    // Ended as the removal and the demotion happen: gone from the pending list at once.
    expect(
      (await browser.gql('mutation($id: ID!) { removeMember(memberId: $id) }', { id: admin.id })).body.errors,
    ).toBeUndefined();
    const demote = 'mutation($id: ID!) { changeRole(memberId: $id, role: admin) { role } }';
    expect((await browser.gql(demote, { id: coOwner.id })).body.errors).toBeUndefined();
    expect((await pending()).sort()).toEqual([memberByCoOwner.email, byLeaver.email].sort());
    expect((await accept(byAdmin)).body.errors?.[0].message).toBe(LINK_INVALID);
    expect((await accept(ownerByCoOwner)).body.errors?.[0].message).toBe(LINK_INVALID);
    expect((await accept(memberByCoOwner)).body.data).toEqual({
      acceptInvitation: expect.objectContaining({ member: expect.objectContaining({ role: 'member' }) }),
    });
    // An inviter gone by any way (here behind the service's back) ends their invitation at its use too.
    await identityDb.collection('members').deleteOne({ email: leaver.email });
    expect((await accept(byLeaver)).body.errors?.[0].message).toBe(LINK_INVALID);
  });

  test('when owners and admins list and cancel invitations, then a cancelled link stops working; members cannot list and admins cannot cancel an invitation to the owner role', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const admin = await addMember(orgId, 'admin');
    const member = await addMember(orgId, 'member');
    const browsers = {
      owner: new Browser(adminUrl()),
      admin: new Browser(adminUrl()),
      member: new Browser(adminUrl()),
    };
    for (const [role, person] of [
      ['owner', owner],
      ['admin', admin],
      ['member', member],
    ] as const)
      await browsers[role].signIn(person.email, person.password);
    const toOwner = `future-owner-${Date.now()}@example.com`;
    const toViewer = `future-viewer-${Date.now()}@example.com`;
    await browsers.owner.gql(INVITE, { e: toOwner, r: 'owner' });
    await browsers.admin.gql(INVITE, { e: toViewer, r: 'viewer' });
    const viewerToken = await linkToken(toViewer, 'invitation');
    const LIST = '{ invitations { id email role invitedBy expiresAt } }';
    type Listed = { invitations: Array<{ id: string; email: string; role: string; invitedBy: string }> };
    const listed = await browsers.admin.gql<Listed>(LIST);
    expect(listed.body.data?.invitations).toEqual([
      expect.objectContaining({ email: toViewer, role: 'viewer', invitedBy: admin.email }),
      expect.objectContaining({ email: toOwner, role: 'owner', invitedBy: owner.email }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(viewerToken);
    const idOf = (email: string) => listed.body.data!.invitations.find((i) => i.email === email)!.id;
    const CANCEL = 'mutation($id: ID!) { cancelInvitation(id: $id) }';

    expect((await browsers.member.gql(LIST)).body.errors?.[0]).toMatchObject({
      message: 'Only owners and admins can list invitations',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await browsers.admin.gql(CANCEL, { id: idOf(toOwner) })).body.errors?.[0].message).toBe(
      'Only owners can grant or change the owner role',
    );
    expect((await browsers.owner.gql(CANCEL, { id: idOf(toViewer) })).body.data).toEqual({ cancelInvitation: true });
    expect((await browsers.owner.gql(CANCEL, { id: idOf(toViewer) })).body.errors?.[0]).toMatchObject({
      message: 'Invitation not found',
      extensions: { code: 'NOT_FOUND' },
    });
    expect(
      (await new Browser(adminUrl()).gql(ACCEPT, { t: viewerToken, n: 'Late', p: 'a long enough password' })).body
        .errors?.[0].message,
    ).toBe(LINK_INVALID);
    expect((await browsers.owner.gql<Listed>(LIST)).body.data?.invitations.map((i) => i.email)).toEqual([toOwner]);
    const audit = await browsers.owner.gql<{ auditLog: { items: Array<{ action: string; target: string }> } }>(AUDIT);
    expect(audit.body.data?.auditLog.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'member.invitation_cancelled', target: `${toViewer} as viewer` }),
      ]),
    );
  });

  test('when an invitation link has expired, then it is refused', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const browser = new Browser(adminUrl());
    await browser.signIn(owner.email, owner.password);
    const invited = `late-${Date.now()}@example.com`;
    await browser.gql(INVITE, { e: invited, r: 'viewer' });
    const token = await linkToken(invited, 'invitation');
    await (
      await stack.connect('identity')
    )
      .collection('one_time_tokens')
      .updateMany({ email: invited }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(
      (await new Browser(adminUrl()).gql(ACCEPT, { t: token, n: 'Late', p: 'a long enough password' })).body.errors?.[0]
        .message,
    ).toBe(LINK_INVALID);
  });

  test('when a password reset is asked for, then the answer never tells whether the email exists, and the link sets a new password once and ends old sessions', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const before = new Browser(adminUrl());
    await before.signIn(owner.email, owner.password);
    const ask = (email: string) =>
      new Browser(adminUrl()).gql<{ requestPasswordReset: boolean }>(
        'mutation($e: String!) { requestPasswordReset(email: $e) }',
        { e: email },
      );
    const nobody = `nobody-${Date.now()}@example.com`;
    expect((await ask(nobody)).body).toEqual((await ask(owner.email)).body);
    const token = await linkToken(owner.email, 'password reset');
    expect(logs.lines().some((line) => line.to === nobody)).toBe(false);

    // A refused new password does not use the link up.
    expect((await new Browser(adminUrl()).gql(RESET, { t: token, p: 'short' })).body.errors?.[0].message).toBe(
      'The password must have at least 12 characters',
    );
    expect((await new Browser(adminUrl()).gql(RESET, { t: token, p: 'a brand new passphrase' })).body.data).toEqual({
      resetPassword: true,
    });
    expect(
      (await new Browser(adminUrl()).gql(RESET, { t: token, p: 'yet another passphrase' })).body.errors?.[0].message,
    ).toBe(LINK_INVALID);
    expect((await new Browser(adminUrl()).signIn(owner.email, owner.password)).body.errors?.[0].message).toBe(
      'Invalid email or password',
    );
    expect((await new Browser(adminUrl()).signIn(owner.email, 'a brand new passphrase')).body.errors).toBeUndefined();
    expect((await before.gql<{ me: unknown }>('{ me { csrfToken } }')).body.data?.me).toBeNull();
    // No log line but the development mail itself holds the token (not the requests that carried it).
    const withToken = logs.lines().filter((line) => JSON.stringify(line).includes(token));
    expect(withToken.map((line) => line.purpose)).toEqual(['password reset']);
  });
});

test('when password resets are asked for one email again and again, then the fourth is refused, whether or not the email has an account', async () => {
  const { orgId } = await stack.createKey();
  const owner = await addMember(orgId, 'owner');
  const ask = (email: string, n: number) =>
    new Browser(`${stack.identity.url}/graphql`, { 'x-forwarded-for': `10.8.${people}.${n}` }).gql(
      'mutation($e: String!) { requestPasswordReset(email: $e) }',
      { e: email },
    );
  for (const email of [owner.email, `nobody-${Date.now()}@example.com`]) {
    for (let n = 1; n <= 3; n += 1) expect((await ask(email, n)).body.data).toEqual({ requestPasswordReset: true });
    expect((await ask(email, 4)).body.errors?.[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
    });
  }
});

test('when 20 password resets for one email are asked for at once, then 3 are taken and mailed, the others RATE_LIMITED', async () => {
  const { orgId } = await stack.createKey();
  const owner = await addMember(orgId, 'owner');
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      new Browser(`${stack.identity.url}/graphql`, { 'x-forwarded-for': `10.13.${people}.${n}` }).gql(
        'mutation($e: String!) { requestPasswordReset(email: $e) }',
        { e: owner.email },
      ),
    ),
  );
  expect(tally(answers)).toEqual({ OK: 3, RATE_LIMITED: 17 });
  const mails = () => logs.lines().filter((line) => line.to === owner.email && line.purpose === 'password reset');
  await eventually(() => mails().length === 3, 20_000, 'the 3 reset mails');
  // Each accepted request sends at most one mail: the 3 are all there will be.
  expect(mails()).toHaveLength(3);
});

test('when a password is reset through the newest link, then an older link of the account no longer works', async () => {
  const { orgId } = await stack.createKey();
  const owner = await addMember(orgId, 'owner');
  const ask = () =>
    new Browser(adminUrl()).gql('mutation($e: String!) { requestPasswordReset(email: $e) }', { e: owner.email });
  await ask();
  const older = await linkToken(owner.email, 'password reset');
  await ask();
  let newer = older;
  await eventually(
    async () => (newer = await linkToken(owner.email, 'password reset')) !== older,
    20_000,
    'the second reset link',
  );
  expect(
    (await new Browser(adminUrl()).gql(RESET, { t: newer, p: 'the newest passphrase' })).body.errors,
  ).toBeUndefined();
  expect(
    (await new Browser(adminUrl()).gql(RESET, { t: older, p: 'an older passphrase' })).body.errors?.[0],
  ).toMatchObject({
    message: LINK_INVALID,
    extensions: { code: 'BAD_REQUEST' },
  });
  expect((await new Browser(adminUrl()).signIn(owner.email, 'the newest passphrase')).body.errors).toBeUndefined();
});

describe('sign-in throttling', () => {
  test('when one address fails too often for an account, then it is refused there, while the owner signs in from another address', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    // Straight to the identity service, which takes the client address the gateway appends.
    const from = (address: string) => new Browser(`${stack.identity.url}/graphql`, { 'x-forwarded-for': address });
    const attacker = `10.9.${people}.1`;
    for (let i = 0; i < 5; i += 1)
      expect((await from(attacker).signIn(owner.email, `guess ${i} of many`)).body.errors?.[0].extensions?.code).toBe(
        'UNAUTHENTICATED',
      );
    const refused = await from(attacker).signIn(owner.email, owner.password);
    expect(refused.body.errors?.[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) },
    });
    expect((await from(`10.9.${people}.2`).signIn(owner.email, owner.password)).body.errors).toBeUndefined();
  });
});

/** Sign-ins straight to an identity service, as the gateway forwards them from `address`. */
const signInFrom = (identityUrl: string, address: string, email: string, password: string) =>
  new Browser(`${identityUrl}/graphql`, { 'x-forwarded-for': address }).signIn(email, password);
const codeOf = (answer: AdminAnswer<unknown>) => answer.body.errors?.[0]?.extensions?.code ?? 'OK';
function tally(answers: Array<AdminAnswer<unknown>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[String(codeOf(answer))] = (counts[String(codeOf(answer))] ?? 0) + 1;
  return counts;
}
const storedCount = (subject: string) => identityDb.collection('sign_in_failures').countDocuments({ subject });
const failuresAudited = (address: string) =>
  identityDb.collection('audit_log').countDocuments({ action: 'session.sign_in_failed', address });

describe('sign-in throttling under simultaneous attempts', () => {
  // An identity service beside the stack's, on the same database, allowing many password checks at once
  // per address: what holds here is the count in the database, not the per-process bound on hashing. The
  // address's limit is 10 instead of 50, so the burst that passes it stays light on a loaded machine.
  let wide: RunningHttpServer;
  beforeAll(async () => {
    wide = await startIdentityService(
      loadIdentityConfig({
        MONGODB_URI: stack.mongodbUri,
        PORT: '0',
        IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
        MONGODB_MAX_TIME_MS: '25000',
        SIGN_IN_CHECKS_PER_ADDRESS: '100',
        SIGN_IN_LIMIT_PER_ADDRESS: '10',
      }),
      createLogger('identity', 'silent'),
    );
  });
  afterAll(() => wide?.close(1_000));

  test('when 30 sign-ins for one account come at once from one address, then 5 passwords are checked, each counted and audited, and the rest are RATE_LIMITED', async () => {
    const { orgId } = await stack.createKey();
    const owner = await addMember(orgId, 'owner');
    const attacker = `10.10.${people}.1`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signInFrom(wide.url, attacker, owner.email, `guess ${i} of a burst`)),
    );
    expect(tally(answers)).toEqual({ UNAUTHENTICATED: 5, RATE_LIMITED: 25 });
    expect(await storedCount(`account:${owner.email}|${attacker}`)).toBe(5);
    expect(await failuresAudited(attacker)).toBe(5);
    // The right password is refused there too, and the owner signs in from their own address.
    expect(codeOf(await signInFrom(wide.url, attacker, owner.email, owner.password))).toBe('RATE_LIMITED');
    expect(codeOf(await signInFrom(wide.url, `10.10.${people}.2`, owner.email, owner.password))).toBe('OK');
  });

  test('when 25 sign-ins for different emails come at once from one address, then its limit of 10 are checked, counted and audited (no count lost, no error), and 15 are RATE_LIMITED', async () => {
    const attacker = `10.11.${people}.1`;
    people += 1;
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        signInFrom(wide.url, attacker, `spray-${i}-${Date.now()}@example.com`, 'not anybody password'),
      ),
    );
    expect(tally(answers)).toEqual({ UNAUTHENTICATED: 10, RATE_LIMITED: 15 });
    expect(await storedCount(`address:${attacker}`)).toBe(10);
    expect(await failuresAudited(attacker)).toBe(10);
  });
});

test("when one address sends 80 wrong sign-ins at once, then it gets only a few password checks at a time and another address's owner signs in meanwhile", async () => {
  const { orgId } = await stack.createKey();
  const owner = await addMember(orgId, 'owner');
  const attacker = `10.12.${people}.1`;
  const burst = Promise.all(
    Array.from({ length: 80 }, (_, i) =>
      signInFrom(stack.identity.url, attacker, `burst-${i}-${Date.now()}@example.com`, 'not anybody password'),
    ),
  );
  const ownerAnswer = await signInFrom(stack.identity.url, `10.12.${people}.2`, owner.email, owner.password);
  const answers = await burst;
  expect(codeOf(ownerAnswer)).toBe('OK');
  const counts = tally(answers);
  // Refused before hashing while the address's 2 checks run: far fewer than the 50 its count allows.
  expect(counts.UNAUTHENTICATED + counts.RATE_LIMITED).toBe(80);
  expect(counts.UNAUTHENTICATED).toBeLessThanOrEqual(20);
  for (const answer of answers.filter((a) => codeOf(a) === 'RATE_LIMITED'))
    expect(answer.body.errors?.[0].extensions?.retryAfter).toEqual(expect.any(Number));
});

describe('revocation delay', () => {
  test('when a key is revoked, then a gateway caching keys for AUTH_CACHE_TTL_MS refuses it within that time', async () => {
    const ttlMs = 2_000;
    const gateway = await startGateway(
      loadGatewayConfig({
        PORT: '0',
        AUTH_CACHE_TTL_MS: String(ttlMs),
        ...stack.identityEnv,
        FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
        CONTACTS_URL: `${stack.subgraphs.contacts.url}/graphql`,
        ACCOUNTS_URL: `${stack.subgraphs.accounts.url}/graphql`,
        INTEGRATIONS_URL: `${stack.subgraphs.integrations.url}/graphql`,
      }),
      createLogger('gateway', 'silent'),
    );
    try {
      const { orgId } = await stack.createKey();
      const owner = await addMember(orgId, 'owner');
      const browser = new Browser(`${gateway.url}/admin/graphql`);
      await browser.signIn(owner.email, owner.password);
      const created = (
        await browser.gql<{ createApiKey: { key: string; apiKey: { id: string } } }>(CREATE_KEY, { n: 'short-lived' })
      ).body.data!.createApiKey;
      const url = `${gateway.url}/graphql`;
      expect((await stack.gql(LIST_FEEDBACK, { apiKey: created.key }, { url })).body.errors).toBeUndefined();
      await browser.gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: created.apiKey.id });
      const revokedAt = Date.now();
      let refusedAfter = -1;
      await eventually(
        async () => {
          const errors = (await stack.gql(LIST_FEEDBACK, { apiKey: created.key }, { url })).body.errors;
          if (errors?.[0]?.message === 'Invalid API key') refusedAfter = Date.now() - revokedAt;
          return refusedAfter >= 0;
        },
        ttlMs + 10_000,
        'the revoked key to be refused',
      );
      // The cache holds an answer no longer than its TTL; a loaded machine adds only the last request's time.
      expect(refusedAfter).toBeLessThan(ttlMs + 3_000);
    } finally {
      await gateway.close(1_000);
    }
  });
});

test("when the public schema is introspected, then it knows nothing of sessions, members, keys or the admin API's contact and account writes", async () => {
  const response = await stack.gql<{
    __schema: { types: Array<{ name: string }>; mutationType: { fields: Array<{ name: string }> } };
  }>('{ __schema { types { name } mutationType { fields { name } } } }');
  const names = response.body.data!.__schema.types.map((type) => type.name);
  for (const internal of ['Session', 'Member', 'ApiKey', 'AuditEntry', 'ContactInput', 'AccountInput', 'ImportProblem'])
    expect(names).not.toContain(internal);
  const mutations = response.body.data!.__schema.mutationType.fields.map((field) => field.name);
  for (const admin of [
    'signIn',
    'createContact',
    'updateContact',
    'deleteContact',
    'importContacts',
    'createAccount',
    'updateAccount',
    'deleteAccount',
    'importAccounts',
  ]) {
    expect(mutations).not.toContain(admin);
  }
});

function withCookie(cookie: string): Browser {
  const browser = new Browser(adminUrl());
  browser.cookie = cookie;
  return browser;
}
