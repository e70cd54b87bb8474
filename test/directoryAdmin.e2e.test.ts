import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import type { Principal, Role } from '@fi/shared';
import { ADMIN, memberPrincipal, serviceAdmin } from './helpers/admin';
import { insertAccounts } from './helpers/fixtures';
import { GET_CONTACT, LIST_CONTACTS } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/**
 * The contacts and accounts services' admin schemas, called as the gateway calls them (a signed identity
 * of the signed-in member), and through the gateway's POST /admin/graphql with a real session.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

interface Contact {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  title: string | null;
  tags: string[];
  createdAt: string;
}
interface ImportReport {
  rows: number;
  imported: number;
  problems: Array<{ row: number; field: string; message: string }>;
}

const contactsUrl = () => stack.subgraphs.contacts.url;
const accountsUrl = () => stack.subgraphs.accounts.url;
const asMember =
  (principal: Principal) =>
  <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    serviceAdmin<T>(contactsUrl(), [principal], query, variables);

async function createContact(principal: Principal, input: Record<string, unknown>): Promise<Contact> {
  const answer = await asMember(principal)<{ createContact: Contact }>(ADMIN.createContact, { input });
  expect(answer.errors).toBeUndefined();
  return answer.data!.createContact;
}

describe('who may do what', () => {
  test.each(['owner', 'admin', 'member'] as Role[])(
    'when the member is %s and creates, edits and deletes a contact, then the service does it',
    async (role) => {
      const { orgId } = await stack.createKey();
      const writer = asMember(memberPrincipal(orgId, role));
      const created = await createContact(memberPrincipal(orgId, role), { name: `By ${role}` });
      expect(
        (await writer(ADMIN.updateContact, { id: created.id, input: { name: `Edited by ${role}` } })).errors,
      ).toBeUndefined();
      expect((await writer(ADMIN.deleteContact, { id: created.id })).data).toEqual({ deleteContact: true });
    },
  );

  test('when a viewer writes, then the service refuses every write (even a dry run) and lets the viewer read', async () => {
    const { orgId } = await stack.createKey();
    const existing = await createContact(memberPrincipal(orgId, 'owner'), { name: 'Existing' });
    const viewer = asMember(memberPrincipal(orgId, 'viewer'));
    const refusal = {
      message: 'Only owners, admins and members can change contacts',
      extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
    };
    for (const [query, variables] of [
      [ADMIN.createContact, { input: { name: 'Sneaky' } }],
      [ADMIN.updateContact, { id: existing.id, input: { name: 'Changed' } }],
      [ADMIN.deleteContact, { id: existing.id }],
      [ADMIN.importContacts, { csv: 'name\nSneaky', dryRun: true }],
    ] as const) {
      expect((await viewer(query, variables)).errors).toEqual([expect.objectContaining(refusal)]);
    }
    const accountRefusal = await serviceAdmin(accountsUrl(), [memberPrincipal(orgId, 'viewer')], ADMIN.createAccount, {
      input: { name: 'Sneaky' },
    });
    expect(accountRefusal.errors?.[0]).toMatchObject({
      message: 'Only owners, admins and members can change accounts',
      extensions: { code: 'FORBIDDEN' },
    });
    const listed = await viewer<{ contacts: { items: Contact[] } }>(ADMIN.contacts);
    expect(listed.data?.contacts.items.map((contact) => contact.name)).toEqual(['Existing']);
  });

  test('when the caller is an API key, nobody, or not signed by the gateway, then the admin schema asks for a sign-in', async () => {
    const { orgId } = await stack.createKey();
    const key: Principal = { ...memberPrincipal(orgId, 'owner'), kind: 'key' };
    for (const principals of [[key], [], null]) {
      const answer = await serviceAdmin(contactsUrl(), principals, ADMIN.createContact, { input: { name: 'Nobody' } });
      expect(answer.errors?.[0]).toMatchObject({ message: 'Sign in first', extensions: { code: 'UNAUTHENTICATED' } });
      expect(answer.data ?? null).toBeNull();
    }
  });
});

describe('organizations', () => {
  test('when a member of another organization reads, edits or deletes a contact by its id, then it is NOT_FOUND and the contact stays as it was', async () => {
    const own = await stack.createKey();
    const other = await stack.createKey();
    const contact = await createContact(memberPrincipal(own.orgId, 'owner'), {
      name: 'Private',
      email: 'p@example.com',
    });
    const stranger = asMember(memberPrincipal(other.orgId, 'owner'));
    const notFound = expect.objectContaining({
      message: 'Contact not found',
      extensions: expect.objectContaining({ code: 'NOT_FOUND' }),
    });
    expect((await stranger(ADMIN.contact, { id: contact.id })).errors).toEqual([notFound]);
    expect((await stranger(ADMIN.updateContact, { id: contact.id, input: { name: 'Taken' } })).errors).toEqual([
      notFound,
    ]);
    expect((await stranger(ADMIN.deleteContact, { id: contact.id })).errors).toEqual([notFound]);
    expect((await stranger<{ contacts: { total: number } }>(ADMIN.contacts)).data?.contacts.total).toBe(0);
    const read = await stack.gql<{ contactItem: Contact }>(GET_CONTACT, { apiKey: own.key, id: contact.id });
    expect(read.body.data?.contactItem).toMatchObject({ name: 'Private', email: 'p@example.com' });
  });
});

describe('contacts', () => {
  test('when a contact is created, edited and deleted, then the public API reads each state, links follow the new email, and the creation time stays', async () => {
    const { key, orgId } = await stack.createKey();
    await insertAccounts(stack, orgId, [{ name: 'Initech', domain: 'initech.example' }]);
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    const created = await createContact(memberPrincipal(orgId, 'owner'), {
      name: '  Ada Lovelace ',
      email: 'ada@example.com',
      company: 'Analytical',
      tags: ['vip'],
    });
    expect(created).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Analytical',
      title: null,
      tags: ['vip'],
    });

    const updated = await owner<{ updateContact: Contact }>(ADMIN.updateContact, {
      id: created.id,
      input: { name: 'Ada King', email: 'ada@initech.example', title: 'Countess' },
    });
    expect(updated.errors).toBeUndefined();
    // A field left out of the input is cleared; the creation time is the contact's, not the edit's.
    expect(updated.data!.updateContact).toMatchObject({
      id: created.id,
      name: 'Ada King',
      email: 'ada@initech.example',
      company: null,
      title: 'Countess',
      tags: [],
      createdAt: created.createdAt,
    });

    const read = await stack.gql<{ contactItem: Contact & { account: { name: string } | null } }>(
      'query($k: String!, $id: String!) { contactItem(apiKey: $k, id: $id) { name email company title account { name } } }',
      { k: key, id: created.id },
    );
    expect(read.body.data?.contactItem).toEqual({
      name: 'Ada King',
      email: 'ada@initech.example',
      company: null,
      title: 'Countess',
      account: { name: 'Initech' },
    });
    const searched = await stack.gql<{ contactItems: { items: Contact[] } }>(LIST_CONTACTS, {
      apiKey: key,
      search: 'initech',
    });
    expect(searched.body.data?.contactItems.items.map((contact) => contact.id)).toEqual([created.id]);

    expect((await owner(ADMIN.deleteContact, { id: created.id })).data).toEqual({ deleteContact: true });
    expect((await stack.gql(GET_CONTACT, { apiKey: key, id: created.id })).body.errors?.[0].extensions?.code).toBe(
      'NOT_FOUND',
    );
    expect((await owner(ADMIN.deleteContact, { id: created.id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  test('when input breaks a rule, then BAD_REQUEST names the field and nothing is written', async () => {
    const { orgId } = await stack.createKey();
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    const badEmail = await owner(ADMIN.createContact, { input: { name: 'Ada', email: 'not-an-email' } });
    expect(badEmail.errors?.[0]).toMatchObject({
      message: 'email must be a valid email address',
      extensions: { code: 'BAD_REQUEST', argument: 'email' },
    });
    const blank = await owner(ADMIN.createContact, { input: { name: '   ', title: 't'.repeat(201) } });
    expect(blank.errors?.[0]).toMatchObject({
      message: 'name must not be blank',
      extensions: {
        code: 'BAD_REQUEST',
        argument: 'name',
        problems: [
          { field: 'name', message: 'must not be blank' },
          { field: 'title', message: 'must be at most 200 characters (got 201)' },
        ],
      },
    });
    const existing = await createContact(memberPrincipal(orgId, 'owner'), { name: 'Kept', email: 'kept@example.com' });
    const badEdit = await owner(ADMIN.updateContact, { id: existing.id, input: { name: 'Kept', email: 'broken' } });
    expect(badEdit.errors?.[0].extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'email' });
    expect((await owner<{ contact: Contact }>(ADMIN.contact, { id: existing.id })).data?.contact.email).toBe(
      'kept@example.com',
    );
    expect((await owner<{ contacts: { total: number } }>(ADMIN.contacts)).data?.contacts.total).toBe(1);
  });

  test.each([
    ['contacts', ADMIN.createContact],
    ['accounts', ADMIN.createAccount],
  ] as const)(
    'when %s tags break the limits of one-line fields, then BAD_REQUEST names tags and nothing is written',
    async (directory, create) => {
      const { orgId } = await stack.createKey();
      const owner = [memberPrincipal(orgId, 'owner')];
      const url = directory === 'contacts' ? contactsUrl() : accountsUrl();
      for (const [tags, message] of [
        [Array.from({ length: 5_000 }, (_, i) => `t${i}`), 'tags must hold at most 50 tags (got 5000)'],
        [['ok', 'x'.repeat(101)], 'tags item 2 must be at most 100 characters (got 101)'],
        [['ok', 'a\u0000b'], 'tags item 2 must not contain control characters or bidirectional overrides'],
        [['a\r\nb'], 'tags item 1 must not contain control characters or bidirectional overrides'],
        [['\u202Egnp.exe'], 'tags item 1 must not contain control characters or bidirectional overrides'],
      ] as const) {
        const answer = await serviceAdmin(url, owner, create, { input: { name: 'Tagged', tags } });
        expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_REQUEST', argument: 'tags' } });
      }
      const list = await serviceAdmin<Record<string, { total: number }>>(url, owner, ADMIN[directory]);
      expect(list.data?.[directory].total).toBe(0);
    },
  );

  test('when the list is searched and paged, then it answers newest first with the total', async () => {
    const { orgId } = await stack.createKey();
    const principal = memberPrincipal(orgId, 'member');
    for (const name of ['Ada', 'Grace', 'Alan', 'Barbara'])
      await createContact(principal, { name, company: name === 'Alan' ? 'Bletchley' : 'Navy' });
    const page = await asMember(principal)<{ contacts: { total: number; items: Contact[] } }>(ADMIN.contacts, {
      search: 'navy',
      skip: 1,
      take: 2,
    });
    expect(page.data?.contacts).toMatchObject({ total: 3, items: [{ name: 'Grace' }, { name: 'Ada' }] });
    expect((await asMember(principal)(ADMIN.contacts, { take: 101 })).errors?.[0].extensions).toMatchObject({
      code: 'BAD_REQUEST',
      argument: 'take',
    });
  });
});

describe('CSV import', () => {
  const GOOD =
    'name,email,company,tags\nAda Lovelace,ada@example.com,Analytical,vip; early\n"King, Ada",,"Engines, Ltd",\n';

  test('when any row has a problem, then every problem of every row is listed and nothing is written, dry run or not', async () => {
    const { orgId } = await stack.createKey();
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    const csv = 'name,email,colour\nAda,ada@example.com,red\n,not-an-email,\nGrace,grace@example.com\n';
    for (const dryRun of [true, false]) {
      const answer = await owner<{ importContacts: ImportReport }>(ADMIN.importContacts, { csv, dryRun });
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.importContacts).toEqual({
        rows: 3,
        imported: 0,
        problems: [
          { row: 1, field: 'colour', message: expect.stringContaining('unknown column') },
          { row: 3, field: 'name', message: 'is required' },
          { row: 3, field: 'email', message: 'must be a valid email address' },
        ],
      });
    }
    expect((await owner<{ contacts: { total: number } }>(ADMIN.contacts)).data?.contacts.total).toBe(0);
  });

  test('when every row is valid, then a dry run writes nothing and the import writes them all, as the rules read them', async () => {
    const { key, orgId } = await stack.createKey();
    const owner = asMember(memberPrincipal(orgId, 'admin'));
    const dry = await owner<{ importContacts: ImportReport }>(ADMIN.importContacts, { csv: GOOD });
    expect(dry.data?.importContacts).toEqual({ rows: 2, imported: 0, problems: [] });
    expect((await owner<{ contacts: { total: number } }>(ADMIN.contacts)).data?.contacts.total).toBe(0);

    const real = await owner<{ importContacts: ImportReport }>(ADMIN.importContacts, { csv: GOOD, dryRun: false });
    expect(real.data?.importContacts).toEqual({ rows: 2, imported: 2, problems: [] });
    const listed = await stack.gql<{ contactItems: { items: Contact[] } }>(LIST_CONTACTS, { apiKey: key });
    expect(
      listed.body.data?.contactItems.items
        .map(({ name, email, company, tags }) => ({ name, email, company, tags }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical', tags: ['vip', 'early'] },
      { name: 'King, Ada', email: null, company: 'Engines, Ltd', tags: [] },
    ]);
  });

  test('when accounts are imported from an accounts export, then numbers and tags come back as they were; a bad score names its row', async () => {
    const { orgId } = await stack.createKey();
    const owner = [memberPrincipal(orgId, 'owner')];
    const exported =
      'id,name,domain,description,website,score,churnRisk,tags,createdAt\r\nx,Acme,acme.example,"Anvils, mostly",,0.8,0.1,"[""enterprise""]",2026-01-02T03:04:05.000Z\r\n';
    const imported = await serviceAdmin<{ importAccounts: ImportReport }>(accountsUrl(), owner, ADMIN.importAccounts, {
      csv: exported,
      dryRun: false,
    });
    expect(imported.data?.importAccounts).toEqual({ rows: 1, imported: 1, problems: [] });
    const listed = await serviceAdmin<{ accounts: { items: Array<Record<string, unknown>> } }>(
      accountsUrl(),
      owner,
      ADMIN.accounts,
    );
    expect(listed.data?.accounts.items).toEqual([
      expect.objectContaining({
        name: 'Acme',
        domain: 'acme.example',
        description: 'Anvils, mostly',
        website: null,
        score: 0.8,
        churnRisk: 0.1,
        tags: ['enterprise'],
        createdAt: '2026-01-02T03:04:05.000Z',
      }),
    ]);
    const bad = await serviceAdmin<{ importAccounts: ImportReport }>(accountsUrl(), owner, ADMIN.importAccounts, {
      csv: 'name,score\nGood,0.5\nBad,1.5\nWorse,high\n',
      dryRun: false,
    });
    expect(bad.data?.importAccounts).toEqual({
      rows: 3,
      imported: 0,
      problems: [
        { row: 3, field: 'score', message: 'must be a number from 0 to 1 (got 1.5)' },
        { row: 4, field: 'score', message: 'must be a number from 0 to 1 (got "high")' },
      ],
    });
    const badInput = await serviceAdmin(accountsUrl(), owner, ADMIN.createAccount, {
      input: { name: 'Acme', churnRisk: 2 },
    });
    expect(badInput.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'churnRisk' } });
  });
});

describe('through the gateway', () => {
  let members: MemberService;
  beforeAll(async () => {
    members = new MemberService(await openRepositories(await stack.connect('identity')));
  });

  /** Signs a new member of `orgId` in at POST /admin/graphql; returns how to send as them. */
  async function signedIn(orgId: string, role: Role) {
    const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const password = 'correct horse battery staple';
    await members.add(OPERATOR, orgId, { email, name: role, role, password });
    const send = async <T = Record<string, unknown>>(
      query: string,
      variables: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${stack.gateway.url}/admin/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return {
        status: response.status,
        setCookie: response.headers.get('set-cookie'),
        body: (await response.json()) as {
          data?: T | null;
          errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
        },
      };
    };
    const answer = await send<{ signIn: { csrfToken: string } }>(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }',
      { e: email, p: password },
    );
    const cookie = answer.setCookie!.split(';')[0];
    const csrf = answer.body.data!.signIn.csrfToken;
    return {
      send: <T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, withCsrf = true) =>
        send<T>(query, variables, { cookie, ...(withCsrf ? { 'x-csrf-token': csrf } : {}) }),
    };
  }

  test('when a signed-in member asks for the session and the contacts in one request, then each service answers its part', async () => {
    const { orgId } = await stack.createKey();
    const member = await signedIn(orgId, 'member');
    expect(
      (await member.send(ADMIN.createContact, { input: { name: 'Through the gateway' } })).body.errors,
    ).toBeUndefined();
    const both = await member.send<{ me: { member: { role: string } }; contacts: { items: Array<{ name: string }> } }>(
      '{ me { member { role } } contacts { items { name } } }',
    );
    expect(both.body).toEqual({
      data: { me: { member: { role: 'member' } }, contacts: { items: [{ name: 'Through the gateway' }] } },
    });
  });

  test('when a contacts mutation comes without the CSRF token, then the gateway refuses it and nothing is written', async () => {
    const { orgId } = await stack.createKey();
    const owner = await signedIn(orgId, 'owner');
    const refused = await owner.send(ADMIN.createContact, { input: { name: 'Forged' } }, false);
    expect(refused.status).toBe(200);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('Missing or invalid CSRF token'),
        extensions: { code: 'FORBIDDEN' },
      }),
    ]);
    expect((await owner.send<{ contacts: { total: number } }>(ADMIN.contacts)).body.data?.contacts.total).toBe(0);
  });

  test("when a viewer's write reaches the service through the gateway, then the service refuses it; without a session it asks for a sign-in", async () => {
    const { orgId } = await stack.createKey();
    const viewer = await signedIn(orgId, 'viewer');
    const refused = await viewer.send(ADMIN.createContact, { input: { name: 'Viewer' } });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Only owners, admins and members can change contacts',
      extensions: { code: 'FORBIDDEN' },
    });
    const anonymous = await fetch(`${stack.gateway.url}/admin/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ contacts { total } }' }),
    });
    expect(((await anonymous.json()) as { errors: Array<{ message: string }> }).errors[0].message).toBe(
      'Sign in first',
    );
  });
});
