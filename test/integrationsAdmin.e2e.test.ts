import { randomUUID } from 'node:crypto';
import { openRepositories } from '@fi/identity';
import { signInMember } from './helpers/admin';
import { post } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';
import { signed } from './helpers/signedWebhook';

const FIELDS = 'id kind name status itemsReceived lastEventAt lastError';
const Q = {
  list: `{ integrations { ${FIELDS} } }`,
  add: `mutation($input: IntegrationInput!) { addIntegration(input: $input) { integration { ${FIELDS} } url address secret } }`,
  pause: `mutation($id: String!) { pauseIntegration(id: $id) { ${FIELDS} } }`,
  resume: `mutation($id: String!) { resumeIntegration(id: $id) { ${FIELDS} } }`,
  rotate: `mutation($id: String!, $secret: String) { rotateIntegrationSecret(id: $id, secret: $secret) { integration { id } secret } }`,
  remove: 'mutation($id: String!) { removeIntegration(id: $id) }',
  events: `query($id: String!) { integrationEvents(id: $id) { type outcome detail itemId attempts receivedAt } }`,
};

interface Created {
  addIntegration: {
    integration: { id: string; status: string };
    url: string | null;
    address: string | null;
    secret: string | null;
  };
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

/** The receiver's URL for a connection's URL as the service shows it. */
const onReceiver = (url: string) => `${stack.integrationsReceiver.url}${new URL(url).pathname}`;

describe('managing integrations in the admin API', () => {
  test('when an owner adds, pauses, resumes, rotates and removes a webhook connection, then each works and each is in the audit log', async () => {
    const { orgId } = await stack.createKey();
    const owner = await signInMember(stack, orgId, 'owner');
    const added = await owner.send<Created>(Q.add, { input: { kind: 'webhook', name: 'Portal' } });
    expect(added.errors).toBeUndefined();
    const { integration, url, secret, address } = added.data!.addIntegration;
    expect(integration).toMatchObject({ status: 'active', itemsReceived: 0 });
    expect(url).toMatch(/\/hooks\/[0-9a-f]{40}$/);
    expect(secret).toMatch(/^whsec_/);
    expect(address).toBeNull();
    const listed = await owner.send<{ integrations: Array<Record<string, unknown>> }>(Q.list);
    expect(listed.data!.integrations).toEqual([expect.objectContaining({ id: integration.id, name: 'Portal' })]);
    expect(JSON.stringify(listed)).not.toContain(secret!.slice(6));

    const body = JSON.stringify({ title: 'Paused?', content: 'Sent while paused', externalId: 'p-1' });
    expect((await owner.send<{ pauseIntegration: { status: string } }>(Q.pause, { id: integration.id })).data).toEqual({
      pauseIntegration: expect.objectContaining({ status: 'paused' }),
    });
    expect(await post(onReceiver(url!), body, signed(secret!, body))).toMatchObject({
      status: 200,
      body: { paused: true },
    });
    await owner.send(Q.resume, { id: integration.id });

    const rotated = await owner.send<{ rotateIntegrationSecret: { secret: string } }>(Q.rotate, { id: integration.id });
    const next = rotated.data!.rotateIntegrationSecret.secret;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await post(onReceiver(url!), body, signed(secret!, body))).status).toBe(401);
    expect((await post(onReceiver(url!), body, signed(next, body))).status).toBe(200);
    await eventually(
      async () =>
        (await owner.send<{ integrationEvents: Array<{ outcome: string }> }>(Q.events, { id: integration.id })).data
          ?.integrationEvents[0]?.outcome === 'done',
      20_000,
      'the event done',
    );
    const events = await owner.send<{ integrationEvents: Array<Record<string, unknown>> }>(Q.events, {
      id: integration.id,
    });
    expect(events.data!.integrationEvents).toEqual([
      expect.objectContaining({ type: 'feedback', outcome: 'done', itemId: expect.any(String), attempts: 1 }),
    ]);

    expect((await owner.send(Q.remove, { id: integration.id })).data).toEqual({ removeIntegration: true });
    expect((await post(onReceiver(url!), body, signed(next, body))).status).toBe(404);
    expect((await owner.send(Q.remove, { id: integration.id })).data).toEqual({ removeIntegration: false });
    const connection = await stack.connect('integrations');
    expect(await connection.collection('connections').countDocuments({ orgId })).toBe(0);
    expect(await connection.collection('inbox_events').countDocuments({ orgId })).toBe(0);

    const audit = await (await openRepositories(await stack.connect('identity'))).audit.page(orgId, {}, 0, 50);
    const ours = audit.items.filter((entry) => entry.action.startsWith('integration.'));
    expect(ours.map((entry) => [entry.action, entry.actor, entry.target]).reverse()).toEqual([
      ['integration.added', owner.email, integration.id],
      ['integration.paused', owner.email, integration.id],
      ['integration.resumed', owner.email, integration.id],
      ['integration.secret_rotated', owner.email, integration.id],
      ['integration.removed', owner.email, integration.id],
    ]);
  });

  test("when a platform's secret or token is given, then it is taken, sealed at rest, never shown; a Slack secret is rotated to the one given", async () => {
    const { orgId } = await stack.createKey();
    const admin = await signInMember(stack, orgId, 'admin');
    const signing = `signing-${randomUUID()}`;
    const token = `xoxb-${randomUUID()}`;
    const added = await admin.send<Created>(Q.add, { input: { kind: 'slack', secret: signing, token } });
    expect(added.data!.addIntegration.secret).toBeNull();
    const mail = await admin.send<Created>(Q.add, { input: { kind: 'email' } });
    expect(mail.data!.addIntegration).toMatchObject({
      url: null,
      address: expect.stringMatching(/^feedback\+[0-9a-f]{40}@/),
    });
    const stored = JSON.stringify(
      await (await stack.connect('integrations')).collection('connections').find({ orgId }).toArray(),
    );
    for (const secret of [signing, token]) expect(stored).not.toContain(secret);
    const rotated = await admin.send<{ rotateIntegrationSecret: { secret: string | null } }>(Q.rotate, {
      id: added.data!.addIntegration.integration.id,
      secret: `new-${signing}`,
    });
    expect(rotated).toMatchObject({ data: { rotateIntegrationSecret: { secret: null } } });
  });

  test('when the input is wrong, then BAD_REQUEST names the argument and nothing is added', async () => {
    const { orgId } = await stack.createKey();
    const owner = await signInMember(stack, orgId, 'owner');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'fax' }, 'kind'],
      [{ kind: 'intercom' }, 'secret'],
      [{ kind: 'hubspot' }, 'token'],
      [{ kind: 'webhook', secret: 'mine' }, 'secret'],
      [{ kind: 'zendesk', token: 't' }, 'subdomain'],
      [{ kind: 'webhook', name: 'n'.repeat(101) }, 'name'],
    ];
    for (const [input, argument] of cases) {
      const answer = await owner.send(Q.add, { input });
      expect({ input, error: answer.errors?.[0]?.extensions }).toEqual({
        input,
        error: { code: 'BAD_REQUEST', argument },
      });
    }
    expect((await owner.send<{ integrations: unknown[] }>(Q.list)).data!.integrations).toEqual([]);
  });

  test("when members or viewers manage integrations, or an admin names another organization's, then FORBIDDEN or NOT_FOUND", async () => {
    const { orgId } = await stack.createKey();
    const owner = await signInMember(stack, orgId, 'owner');
    const id = (await owner.send<Created>(Q.add, { input: { kind: 'email' } })).data!.addIntegration.integration.id;
    for (const role of ['member', 'viewer'] as const) {
      const someone = await signInMember(stack, orgId, role);
      for (const [query, variables] of [
        [Q.list, {}],
        [Q.add, { input: { kind: 'email' } }],
        [Q.pause, { id }],
        [Q.remove, { id }],
      ] as const) {
        const answer = await someone.send(query, variables);
        expect({ role, query, code: answer.errors?.[0]?.extensions?.code }).toEqual({ role, query, code: 'FORBIDDEN' });
      }
    }
    const other = await signInMember(stack, (await stack.createKey()).orgId, 'admin');
    expect((await other.send(Q.pause, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await other.send(Q.remove, { id })).data).toEqual({ removeIntegration: false });
    expect((await owner.send<{ integrations: Array<{ status: string }> }>(Q.list)).data!.integrations).toEqual([
      expect.objectContaining({ id, status: 'active' }),
    ]);
  });

  test('when another service records an identity action, or names a member of another organization, then the audit route refuses it and records nothing', async () => {
    const { orgId } = await stack.createKey();
    const owner = await signInMember(stack, orgId, 'owner');
    const stranger = await signInMember(stack, (await stack.createKey()).orgId, 'owner');
    const record = (body: Record<string, unknown>) =>
      fetch(`${stack.identity.url}/internal/audit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orgId, target: 'x', ...body }),
      });
    expect((await record({ memberId: owner.id, action: 'key.created' })).status).toBe(400);
    expect((await record({ memberId: stranger.id, action: 'integration.added' })).status).toBe(400);
    expect((await record({ action: 'integration.added' })).status).toBe(400);
    expect((await record({ memberId: null, action: 'integration.removed' })).status).toBe(204);
    const audit = await (await openRepositories(await stack.connect('identity'))).audit.page(orgId, {}, 0, 50);
    expect(
      audit.items.filter((entry) => entry.action.startsWith('integration.')).map((e) => [e.action, e.actor]),
    ).toEqual([['integration.removed', 'cli']]);
  });
});
