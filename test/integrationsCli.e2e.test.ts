import { randomUUID } from 'node:crypto';
import { openRepositories } from '@fi/identity';
import { Webhook } from 'standardwebhooks';
import { cli } from './helpers/cli';
import { itemsOf, post } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';

let stack: Stack;
beforeAll(async () => {
  // The CLI works on the service's default database: this stack's integrations use it too.
  stack = await startStack({}, { databases: { integrations: 'integrations' } });
});
afterAll(async () => {
  await stack.close();
});

describe('integrations in the CLI', () => {
  test('when an operator adds a webhook connection, then one JSON object tells its id, URL and secret, and events sent there become items', async () => {
    const { key, orgId } = await stack.createKey();
    const added = await cli('integrations', 'add', '--org', orgId, '--kind', 'webhook', '--name', 'Portal');
    expect(added.code).toBe(0);
    expect(added.stdout).toHaveLength(1);
    const created = JSON.parse(added.stdout[0]) as { id: string; kind: string; url: string; secret: string };
    expect(Object.keys(created).sort()).toEqual(['id', 'kind', 'secret', 'url']);
    expect(created).toMatchObject({ kind: 'webhook', url: expect.stringMatching(/\/hooks\/[0-9a-f]{40}$/) });
    const body = JSON.stringify({ title: 'From the CLI', content: 'It works', externalId: 'cli-1' });
    const id = `msg_${randomUUID()}`;
    const at = new Date();
    const answer = await post(`${stack.integrationsReceiver.url}${new URL(created.url).pathname}`, body, {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(created.secret).sign(id, at, body),
    });
    expect(answer.status).toBe(200);
    await eventually(async () => (await itemsOf(stack, key, 'webhook')).total === 1, 60_000, 'the item');

    const listed = await cli('integrations', 'list', '--org', orgId);
    expect(listed.stdout).toEqual([expect.stringMatching(new RegExp(`^${created.id}\twebhook\tPortal\tactive\t`))]);
    expect(listed.stdout.join('\n')).not.toContain(created.secret.slice(6));
  });

  test('when an operator adds email and Slack connections, then the address is shown, a given secret is not, and removal deletes them; each change is audited as cli', async () => {
    const { orgId } = await stack.createKey();
    const email = JSON.parse((await cli('integrations', 'add', '--org', orgId, '--kind', 'email')).stdout[0]) as Record<
      string,
      string
    >;
    expect(Object.keys(email).sort()).toEqual(['address', 'id', 'kind']);
    expect(email.address).toMatch(/^feedback\+[0-9a-f]{40}@/);
    const signing = `signing-${randomUUID()}`;
    const slack = await cli(
      'integrations',
      'add',
      '--org',
      orgId,
      '--kind',
      'slack',
      '--secret',
      signing,
      '--token',
      'xoxb-1',
    );
    const created = JSON.parse(slack.stdout[0]) as Record<string, string>;
    expect(Object.keys(created).sort()).toEqual(['id', 'kind', 'url']);
    expect(slack.stdout.join('') + slack.stderr).not.toContain(signing);

    expect((await cli('integrations', 'remove', email.id, '--org', orgId)).code).toBe(0);
    expect((await cli('integrations', 'remove', email.id, '--org', orgId)).code).toBe(2);
    expect((await cli('integrations', 'list', '--org', orgId)).stdout).toHaveLength(1);
    const audit = await (await openRepositories(await stack.connect('identity'))).audit.page(orgId, {}, 0, 50);
    expect(
      audit.items
        .filter((entry) => entry.action.startsWith('integration.'))
        .map((entry) => [entry.action, entry.actor, entry.target])
        .reverse(),
    ).toEqual([
      ['integration.added', 'cli', email.id],
      ['integration.added', 'cli', created.id],
      ['integration.removed', 'cli', email.id],
    ]);
  });

  test('when the input is wrong, then the CLI exits 2 naming the problem and adds nothing', async () => {
    const { orgId } = await stack.createKey();
    const cases: Array<[string[], RegExp]> = [
      [['integrations', 'add', '--org', orgId], /needs --kind webhook\|intercom/],
      [['integrations', 'add', '--org', orgId, '--kind', 'fax'], /kind must be one of/],
      [['integrations', 'add', '--org', orgId, '--kind', 'intercom'], /secret is required/],
      [['integrations', 'add', '--org', orgId, '--kind', 'zendesk', '--token', 't'], /subdomain is required/],
      [['integrations', 'add', '--kind', 'webhook'], /needs --org ORG/],
      [['integrations', 'add', '--org', orgId, '--kind', 'webhook', '--backfill-days', '7'], /for zendesk and hubspot/],
      [
        ['integrations', 'add', '--org', orgId, '--kind', 'hubspot', '--token', 't', '--backfill-days', '400'],
        /backfillDays must be a whole number of days from 0 to 365/,
      ],
      [
        ['integrations', 'add', '--org', orgId, '--kind', 'hubspot', '--token', 't', '--backfill-days', 'x'],
        /whole number/,
      ],
      [['integrations', 'rename', '--org', orgId], /needs add, list or remove/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(...args);
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 2, stdout: [] });
      expect(run.stderr).toMatch(message);
    }
    expect((await cli('integrations', 'list', '--org', orgId)).stdout).toEqual([]);
  });

  test("when an operator chooses a pull's backfill window, then the connection keeps it for its first sync", async () => {
    const { orgId } = await stack.createKey();
    const added = await cli(
      'integrations',
      'add',
      '--org',
      orgId,
      '--kind',
      'hubspot',
      '--token',
      't',
      '--backfill-days',
      '7',
    );
    expect(added.code).toBe(0);
    const { id } = JSON.parse(added.stdout[0]) as { id: string };
    const stored = await (await stack.connect('integrations')).collection('connections').findOne({ orgId });
    expect({ id: String(stored?._id), settings: stored?.settings }).toEqual({ id, settings: { backfillDays: 7 } });
  });
});
