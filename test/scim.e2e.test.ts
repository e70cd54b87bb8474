import { MemberService, openRepositories, openScimTokens, OPERATOR, type ScimTokenService } from '@fi/identity';
import type { Role } from '@fi/shared';
import type { Connection } from 'mongoose';
import { cli } from './helpers/cli';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';

let stack: Stack;
let identityDb: Connection;
let members: MemberService;
let tokens: ScimTokenService;
beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  identityDb = await stack.connect('identity');
  const repositories = await openRepositories(identityDb);
  members = new MemberService(repositories);
  tokens = await openScimTokens(identityDb, repositories);
});
afterAll(() => stack.close());

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
let people = 0;
const uniqueEmail = (who: string) => `${who}-${(people += 1)}-${Date.now()}@example.com`;

/** SCIM resources are read field by field below, as a client reads them. */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface ScimAnswer {
  status: number;
  headers: Headers;
  body: Json;
}

/** A SCIM request to the gateway's /scim/v2, as an identity provider sends it. */
async function scim(token: string | null, method: string, path: string, body?: unknown): Promise<ScimAnswer> {
  const response = await fetch(`${stack.gateway.url}/scim/v2${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      accept: 'application/scim+json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

/** A fresh organization with an owner (who can sign in) and a SCIM token made by an operator (acts as owner). */
async function newOrganization() {
  const { orgId } = await stack.createKey();
  const owner = await addMember(orgId, 'owner');
  const { token } = await tokens.create(OPERATOR, orgId, 'okta');
  return { orgId, owner, token };
}

async function addMember(orgId: string, role: Role) {
  const email = uniqueEmail(role);
  const password = `correct horse ${email} battery`;
  const member = await members.add(OPERATOR, orgId, { email, name: `${role} person`, role, password });
  return { id: member.id, email, password };
}

/** A page of the web application signed in as `email`: its session cookie, and the admin API through it. */
async function signIn(email: string, password: string) {
  const held: { cookie?: string; csrf?: string } = {};
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${stack.gateway.url}/admin/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(held.cookie ? { cookie: held.cookie } : {}),
        ...(held.csrf ? { 'x-csrf-token': held.csrf } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    held.cookie = response.headers.get('set-cookie')?.split(';')[0] ?? held.cookie;
    return (await response.json()) as Json;
  };
  const answer = await gql('mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }', {
    e: email,
    p: password,
  });
  held.csrf = answer.data?.signIn?.csrfToken;
  return { answer, gql, me: async () => (await gql('{ me { member { email } } }')).data?.me ?? null };
}

// Okta's provisioning requests, as its SCIM 2.0 guide writes them.
const oktaUser = (email: string) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Ada Lovelace',
  locale: 'en-US',
  externalId: '00u1dhhb1fkIGP7RL1d8',
  groups: [],
  password: 'an-okta-generated-password',
  active: true,
});

// Microsoft Entra ID's, as its SCIM guide writes them (enterprise extension, "True"/"False" strings, "Replace").
const entraUser = (email: string, externalId: string) => ({
  schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId,
  userName: email,
  active: true,
  emails: [{ primary: true, type: 'work', value: email }],
  meta: { resourceType: 'User' },
  name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
  roles: [],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Navy', employeeNumber: '1906' },
});

describe('discovery', () => {
  test('when a client reads the discovery endpoints, then they describe users, groups and what is supported, as SCIM JSON', async () => {
    const config = await scim(null, 'GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true },
    });
    const types = await scim(null, 'GET', '/ResourceTypes');
    expect(types.body.Resources.map((type: { endpoint: string }) => type.endpoint)).toEqual(['/Users', '/Groups']);
    const schema = await scim(null, 'GET', `/Schemas/${USER}`);
    expect(schema.body.attributes.map((attribute: { name: string }) => attribute.name)).toContain('userName');
    const missing = await scim(null, 'GET', '/Schemas/urn:nothing');
    expect(missing.body).toMatchObject({ schemas: [ERROR], status: '404' });
  });
});

describe('tokens', () => {
  test('when a request has no token, a wrong one or a revoked one, then it is refused 401 in SCIM form, revocation at once and audited', async () => {
    const { orgId, token } = await newOrganization();
    for (const header of [null, 'fis_nothing', `${token.slice(0, -2)}xx`]) {
      const refused = await scim(header, 'GET', '/Users');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(refused.body).toEqual({
        schemas: [ERROR],
        status: '401',
        detail: 'A valid SCIM bearer token is required',
      });
    }
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
    const [record] = await tokens.list(OPERATOR, orgId);
    await tokens.revoke(OPERATOR, orgId, record.id);
    expect((await scim(token, 'GET', '/Users')).status).toBe(401);
    const audit = await identityDb
      .collection('audit_log')
      .find({ orgId, action: /^scim\./ })
      .sort({ _id: 1 })
      .toArray();
    expect(audit.map((entry) => [entry.action, entry.target])).toEqual([
      ['scim.token_created', record.id],
      ['scim.token_revoked', record.id],
    ]);
    // Only the hash is stored.
    const stored = await identityDb.collection('scim_tokens').findOne({ _id: record.id as never });
    expect(JSON.stringify(stored)).not.toContain(token);
  });
});

describe('the CLI', () => {
  test('when an operator makes a SCIM token, then stdout holds only the token, it works, and scim revoke stops it', async () => {
    const { orgId } = await stack.createKey();
    const made = await cli('scim', 'token', '--org', orgId, '--name', 'okta');
    expect(made.code).toBe(0);
    expect(made.stdout).toEqual([expect.stringMatching(/^fis_[A-Za-z0-9_-]{43}$/)]);
    const [token] = made.stdout;
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
    const listed = await cli('scim', 'tokens', '--org', orgId);
    expect(listed.stdout).toHaveLength(1);
    expect(listed.stdout[0]).not.toContain(token.slice(8));
    const id = listed.stdout[0].split('\t')[0];
    expect((await cli('scim', 'revoke', id, '--org', orgId)).code).toBe(0);
    expect((await scim(token, 'GET', '/Users')).status).toBe(401);
    expect(await cli('scim', 'token', '--org', `${orgId}-missing`)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not found'),
    });
    expect((await cli('scim', 'token')).code).toBe(2);
  });
});

describe('Settings, SCIM tokens (the admin API)', () => {
  test('when an owner creates, lists and revokes a token, then it works until revoked; a member may not', async () => {
    const { orgId, owner } = await newOrganization();
    const page = await signIn(owner.email, owner.password);
    const created = await page.gql(
      'mutation { createScimToken(name: "Okta") { token scimToken { id name hint role createdBy } } }',
    );
    const { token, scimToken } = created.data.createScimToken;
    expect(scimToken).toMatchObject({ name: 'Okta', hint: token.slice(0, 8), role: 'owner', createdBy: owner.email });
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
    const listed = await page.gql('{ scimTokens { id revokedAt } }');
    expect(listed.data.scimTokens.map((listedToken: Json) => listedToken.id)).toContain(scimToken.id);
    expect(JSON.stringify(listed)).not.toContain(token);

    const person = await addMember(orgId, 'member');
    const memberPage = await signIn(person.email, person.password);
    const refused = await memberPage.gql('mutation { createScimToken(name: "mine") { token } }');
    expect(refused.errors[0]).toMatchObject({
      message: 'Only owners and admins can manage SCIM tokens',
      extensions: { code: 'FORBIDDEN' },
    });

    const revoked = await page.gql('mutation($id: ID!) { revokeScimToken(id: $id) { revokedAt } }', {
      id: scimToken.id,
    });
    expect(revoked.data.revokeScimToken.revokedAt).toEqual(expect.any(String));
    expect((await scim(token, 'GET', '/Users')).status).toBe(401);
  });
});

describe('users as Okta provisions them', () => {
  test('when Okta looks a user up, creates, reads, deactivates and reactivates them, then each answer is the RFC form', async () => {
    const { token } = await newOrganization();
    const email = uniqueEmail('ada');
    const lookup = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`,
    );
    expect(lookup.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const created = await scim(token, 'POST', '/Users', oktaUser(email));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: email,
      externalId: '00u1dhhb1fkIGP7RL1d8',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      displayName: 'Ada Lovelace',
      emails: [{ value: email, primary: true }],
      active: true,
      groups: [{ value: 'member' }],
      meta: { resourceType: 'User' },
    });
    const id = created.body.id as string;
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.body.meta.location).toMatch(new RegExp(`/scim/v2/Users/${id}$`));
    expect((await scim(token, 'POST', '/Users', oktaUser(email))).body).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });

    const found = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    expect((await scim(token, 'GET', `/Users/${id}`)).body.userName).toBe(email);

    const deactivated = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ id, active: false, userName: email, externalId: '00u1dhhb1fkIGP7RL1d8' });
    expect(await identityDb.collection('members').countDocuments({ _id: id as never })).toBe(0);
    expect((await scim(token, 'GET', `/Users/${id}`)).body.active).toBe(false);

    const replaced = await scim(token, 'PUT', `/Users/${id}`, {
      ...oktaUser(email),
      id,
      name: { givenName: 'Augusta', familyName: 'King' },
      displayName: 'Augusta King',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      active: true,
      displayName: 'Augusta King',
      name: { givenName: 'Augusta' },
    });
    expect(await identityDb.collection('members').findOne({ _id: id as never })).toMatchObject({
      name: 'Augusta King',
    });
  });

  test('when users are listed with startIndex and count, then pages run over members and then deactivated people', async () => {
    const { token, owner } = await newOrganization();
    const ids = [owner.id];
    for (let n = 0; n < 4; n += 1)
      ids.push((await scim(token, 'POST', '/Users', oktaUser(uniqueEmail('page')))).body.id);
    await scim(token, 'PATCH', `/Users/${ids[1]}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    const seen: string[] = [];
    for (const startIndex of [1, 3, 5]) {
      const page = await scim(token, 'GET', `/Users?startIndex=${startIndex}&count=2`);
      expect(page.body).toMatchObject({ totalResults: 5, startIndex });
      seen.push(...page.body.Resources.map((user: { id: string }) => user.id));
    }
    expect(seen).toEqual([ids[0], ids[2], ids[3], ids[4], ids[1]]);
    expect((await scim(token, 'GET', '/Users?count=0')).body).toMatchObject({ totalResults: 5, Resources: [] });
  });
});

describe('users as Entra ID provisions them', () => {
  test('when Entra creates a user and patches them with its own shapes, then the changes hold', async () => {
    const { token } = await newOrganization();
    const email = uniqueEmail('grace');
    const created = await scim(token, 'POST', '/Users', entraUser(email, 'entra-58342554'));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const byExternalId = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "entra-58342554"')}`,
    );
    expect(byExternalId.body.Resources.map((user: { id: string }) => user.id)).toEqual([id]);

    const patched = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'name.givenName', value: 'Amazing Grace' },
        { op: 'Replace', path: 'displayName', value: 'Amazing Grace Hopper' },
        {
          op: 'Add',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'Computing',
        },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: email },
      ],
    });
    expect(patched.body).toMatchObject({
      id,
      displayName: 'Amazing Grace Hopper',
      name: { givenName: 'Amazing Grace' },
    });

    const disabled = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.body.active).toBe(false);
    const enabled = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(enabled.body).toMatchObject({ active: true, displayName: 'Amazing Grace Hopper' });

    expect((await scim(token, 'DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim(token, 'GET', `/Users/${id}`)).body).toMatchObject({ schemas: [ERROR], status: '404' });
  });

  test('when requests are malformed, then SCIM errors name the problem', async () => {
    const { token } = await newOrganization();
    expect((await scim(token, 'GET', `/Users?filter=${encodeURIComponent('title co "x"')}`)).body).toMatchObject({
      status: '400',
      scimType: 'invalidFilter',
    });
    expect((await scim(token, 'POST', '/Users', { schemas: [USER], userName: 'not-an-email' })).body).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
      detail: expect.stringContaining('userName must be an email address'),
    });
    const { id } = (await scim(token, 'POST', '/Users', oktaUser(uniqueEmail('bad')))).body;
    expect((await scim(token, 'PATCH', `/Users/${id}`, { Operations: [] })).body).toMatchObject({
      scimType: 'invalidSyntax',
    });
    expect(
      (
        await scim(token, 'PATCH', `/Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'shoeSize', value: 1 }],
        })
      ).body,
    ).toMatchObject({ status: '400', scimType: 'invalidPath' });
    const wrongType = await fetch(`${stack.gateway.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(wrongType.status).toBe(415);
  });
});

describe('isolation', () => {
  test("when one organization's token names another's people, then it sees and changes nothing of them", async () => {
    const a = await newOrganization();
    const b = await newOrganization();
    const { id } = (await scim(a.token, 'POST', '/Users', oktaUser(uniqueEmail('isolated')))).body;
    const email = (await scim(a.token, 'GET', `/Users/${id}`)).body.userName as string;
    expect((await scim(b.token, 'GET', `/Users/${id}`)).status).toBe(404);
    expect((await scim(b.token, 'GET', `/Users/${a.owner.id}`)).status).toBe(404);
    expect(
      (await scim(b.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`)).body.totalResults,
    ).toBe(0);
    const listed = (await scim(b.token, 'GET', '/Users')).body.Resources.map((user: { id: string }) => user.id);
    expect(listed).toEqual([b.owner.id]);
    const patch = { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] };
    expect((await scim(b.token, 'PATCH', `/Users/${id}`, patch)).status).toBe(404);
    expect((await scim(b.token, 'DELETE', `/Users/${id}`)).status).toBe(404);
    const addToAdmins = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] };
    expect((await scim(b.token, 'PATCH', '/Groups/admin', addToAdmins)).status).toBe(400);
    const admins = (await scim(b.token, 'GET', '/Groups/owner')).body.members.map(
      (member: { value: string }) => member.value,
    );
    expect(admins).toEqual([b.owner.id]);
    expect((await scim(a.token, 'GET', `/Users/${id}`)).body).toMatchObject({
      active: true,
      groups: [{ value: 'member' }],
    });
  });
});

describe('deactivation', () => {
  test('when a signed-in person is deactivated or deleted, then their live session ends and they cannot sign in', async () => {
    const { orgId, token } = await newOrganization();
    for (const how of ['deactivate', 'delete'] as const) {
      const person = await addMember(orgId, 'member');
      const page = await signIn(person.email, person.password);
      expect(await page.me()).toEqual({ member: { email: person.email } });
      const answer =
        how === 'deactivate'
          ? await scim(token, 'PATCH', `/Users/${person.id}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
            })
          : await scim(token, 'DELETE', `/Users/${person.id}`);
      expect(answer.status).toBe(how === 'deactivate' ? 200 : 204);
      await eventually(async () => (await page.me()) === null, 30_000, `the ${how}d person's session to end`);
      const again = await signIn(person.email, person.password);
      expect(again.answer.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    const audit = await identityDb.collection('audit_log').find({ orgId, actor: 'scim' }).sort({ _id: 1 }).toArray();
    expect(audit.map((entry) => entry.action)).toEqual(['member.deactivated', 'member.removed']);
  });

  test('when the last owner would be deactivated, or an owner by an admin token, then it is refused and they stay', async () => {
    const { orgId, owner, token } = await newOrganization();
    const deactivate = { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] };
    expect((await scim(token, 'PATCH', `/Users/${owner.id}`, deactivate)).body).toMatchObject({
      status: '400',
      detail: 'An organization keeps at least one owner',
    });
    const admin = await addMember(orgId, 'admin');
    const adminActor = {
      kind: 'member' as const,
      member: {
        id: admin.id,
        orgId,
        email: admin.email,
        name: 'admin person',
        role: 'admin' as const,
        createdAt: new Date(),
      },
      address: null,
    };
    const { token: adminToken } = await tokens.create(adminActor, orgId, 'entra');
    const second = await addMember(orgId, 'owner');
    expect((await scim(adminToken, 'PATCH', `/Users/${second.id}`, deactivate)).body).toMatchObject({ status: '403' });
    const promote = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: admin.id }] }] };
    expect((await scim(adminToken, 'PATCH', '/Groups/owner', promote)).status).toBe(403);
    expect((await scim(token, 'GET', `/Users/${second.id}`)).body.active).toBe(true);
  });

  test('when two owners are deactivated at the same instant, then one stays owner', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { orgId, owner, token } = await newOrganization();
      const second = await addMember(orgId, 'owner');
      const deactivate = { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] };
      const answers = await Promise.all(
        [owner.id, second.id].map((id) => scim(token, 'PATCH', `/Users/${id}`, deactivate)),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      expect(await identityDb.collection('members').countDocuments({ orgId, role: 'owner' })).toBe(1);
    }
  });
});

describe('groups are the roles', () => {
  test('when people are added to and taken out of a group as Okta and Entra do it, then their role follows', async () => {
    const { orgId, token } = await newOrganization();
    const { id } = (await scim(token, 'POST', '/Users', oktaUser(uniqueEmail('grouped')))).body;
    const groups = await scim(
      token,
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "admin"')}&excludedAttributes=members`,
    );
    expect(groups.body.Resources).toEqual([expect.objectContaining({ id: 'admin', displayName: 'admin' })]);
    expect(groups.body.Resources[0].members).toBeUndefined();

    const added = await scim(token, 'PATCH', '/Groups/admin', {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: id, display: 'grouped' }] }],
    });
    expect(added.body.members.map((member: { value: string }) => member.value)).toEqual([id]);
    expect((await scim(token, 'GET', `/Users/${id}`)).body.groups).toEqual([
      expect.objectContaining({ value: 'admin' }),
    ]);

    // Okta takes one out with a filtered path; Entra with a value list.
    await scim(token, 'PATCH', '/Groups/admin', {
      schemas: [PATCH_OP],
      Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
    });
    expect(await identityDb.collection('members').findOne({ _id: id as never })).toMatchObject({ role: 'viewer' });
    await scim(token, 'PATCH', '/Groups/member', {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }],
    });
    await scim(token, 'PATCH', '/Groups/member', {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: id }] }],
    });
    expect(await identityDb.collection('members').findOne({ _id: id as never })).toMatchObject({ role: 'viewer' });
    const changes = await identityDb
      .collection('audit_log')
      .find({ orgId, action: 'member.role_changed' })
      .sort({ _id: 1 })
      .toArray();
    expect(changes.map((entry) => entry.actor)).toEqual(['scim', 'scim', 'scim', 'scim']);
    expect((await scim(token, 'POST', '/Groups', { displayName: 'admin' })).status).toBe(409);
  });

  test('when a group change has one bad part, then none of it is made; an owner swap by PUT passes and keeps an owner', async () => {
    const { orgId, owner, token } = await newOrganization();
    const { id } = (await scim(token, 'POST', '/Users', oktaUser(uniqueEmail('swap')))).body;
    const halfBad = await scim(token, 'PATCH', '/Groups/admin', {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'add', path: 'members', value: [{ value: id }] },
        { op: 'add', path: 'members', value: [{ value: 'mem_nobody' }] },
      ],
    });
    expect(halfBad.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect(await identityDb.collection('members').findOne({ _id: id as never })).toMatchObject({ role: 'member' });

    expect((await scim(token, 'PUT', '/Groups/owner', { displayName: 'owner', members: [] })).body).toMatchObject({
      status: '400',
      detail: 'An organization keeps at least one owner',
    });
    const swapped = await scim(token, 'PUT', '/Groups/owner', {
      schemas: [GROUP],
      displayName: 'owner',
      members: [{ value: id }],
    });
    expect(swapped.body.members.map((member: Json) => member.value)).toEqual([id]);
    expect(await identityDb.collection('members').findOne({ _id: owner.id as never })).toMatchObject({
      role: 'viewer',
    });
    expect(await identityDb.collection('members').countDocuments({ orgId, role: 'owner' })).toBe(1);
  });
});
