import { runCli } from '../cli/src/main';
import type { Output } from '../cli/src/output';
import { startStack, type Stack } from './helpers/stack';
import { LIST_ENDPOINTS } from './helpers/webhookQueries';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function cli(...args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out: Output = { result: (line) => stdout.push(line), info: (line) => stderr.push(line) };
  const code = await runCli(args, out);
  return { code, stdout, stderr: stderr.join('\n') };
}

describe('webhooks (CLI)', () => {
  test('when an operator adds, lists and removes an endpoint, then the API sees the same and the secret is printed once', async () => {
    const { key, orgId } = await stack.createKey();
    // A public address literal: no DNS lookup, accepted by the production policy the CLI applies here.
    const added = await cli('webhooks', 'add', '--org', orgId, '--url', 'https://93.184.215.14/hooks', '--events', 'feedback.created, feedback.deleted');
    expect(added.code).toBe(0);
    expect(added.stdout).toEqual([expect.stringMatching(/^whsec_/)]);
    const [endpoint] = (await stack.gql<{ webhookEndpoints: Array<{ id: string; url: string; events: string[] }> }>(LIST_ENDPOINTS, { k: key })).body.data!.webhookEndpoints;
    expect(endpoint).toMatchObject({ url: 'https://93.184.215.14/hooks', events: ['feedback.created', 'feedback.deleted'] });

    const listed = await cli('webhooks', 'list', '--org', orgId);
    expect(listed.stdout).toEqual([expect.stringContaining(`${endpoint.id}\thttps://93.184.215.14/hooks\tfeedback.created,feedback.deleted`)]);
    expect(listed.stdout.join('\n')).not.toContain(added.stdout[0]);
    const deliveries = await cli('webhooks', 'deliveries', endpoint.id, '--org', orgId);
    expect(deliveries).toMatchObject({ code: 0, stdout: [], stderr: '0 of 0 deliveries' });

    expect((await cli('webhooks', 'remove', endpoint.id, '--org', orgId)).code).toBe(0);
    expect((await cli('webhooks', 'list', '--org', orgId)).stdout).toEqual([]);
  });

  test.each([
    [['webhooks', 'add', '--org', 'o', '--url', 'http://93.184.215.14/', '--events', 'feedback.created'], 'url must use https'],
    [['webhooks', 'add', '--org', 'o', '--url', 'https://10.0.0.1/', '--events', 'feedback.created'], '10.0.0.1 is a private'],
    [['webhooks', 'add', '--org', 'o', '--url', 'https://93.184.215.14/', '--events', 'nope'], 'events must be among'],
    [['webhooks', 'add', '--org', 'o'], 'webhooks add needs --url URL and --events'],
    [['webhooks', 'remove', '6561f0c2a1b2c3d4e5f60718', '--org', 'o'], 'Webhook endpoint not found'],
    [['webhooks', 'list'], 'webhooks list needs --org ORG'],
  ])('when the command is %j, then it exits 2 naming the problem', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
