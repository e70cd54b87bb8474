import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@fi/cli/embedded';
import { APP_SERVICES } from './helpers/deployment';
import { createKeyAt } from './helpers/keys';
import { ROOT, spawnEntry, untilReady, type Spawned } from './helpers/processes';
import { ownDatabaseName } from './helpers/stack';

const WORKSPACES = [
  'shared',
  'gateway',
  'cli',
  'services/feedback',
  'services/contacts',
  'services/accounts',
  'services/identity',
];

describe('the production build', () => {
  const processes: Spawned[] = [];

  beforeAll(async () => {
    // The real build, as CI and the image run it: one tsc program, each workspace's dist/ replaced.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build.ts')], {
      cwd: ROOT,
    });
  }, 300_000);

  afterAll(async () => {
    for (const spawned of processes) spawned.child.kill('SIGTERM');
    await Promise.all(processes.map((spawned) => spawned.exited));
  });

  test('when it has run, then every production export of every workspace is a compiled file beside its schema', () => {
    for (const workspace of WORKSPACES) {
      const { exports: entries } = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8')) as {
        exports: Record<string, { production?: string } | string>;
      };
      for (const target of Object.values(entries)) {
        if (typeof target === 'string') continue;
        expect({
          workspace,
          target: target.production,
          exists: !!target.production && existsSync(path.join(ROOT, workspace, target.production)),
        }).toEqual({ workspace, target: target.production, exists: true });
      }
    }
    for (const name of ['feedback', 'contacts', 'accounts', 'identity', 'integrations'])
      expect(existsSync(path.join(ROOT, `services/${name}/dist/schema.graphql`))).toBe(true);
  });

  test('when the compiled subgraphs, feedback worker, identity service and gateway run without tsx, then a keyed query through the gateway answers', async () => {
    const uri = process.env.MONGODB_URI as string;
    // In the identity database the compiled identity service reads (the subgraphs get databases of their own).
    const key = await createKeyAt(uri);
    const common = { MONGODB_URI: uri, HOST: '127.0.0.1', NODE_ENV: 'production' };
    const urls: Record<string, string> = {};
    const feedbackDatabase = ownDatabaseName('build_feedback');
    // The feedback worker is the same image with another command, on the feedback service's database.
    for (const name of ['feedback', 'feedback-worker', 'contacts', 'accounts', 'identity', 'integrations'] as const) {
      const port = await freePort();
      urls[name] = `http://127.0.0.1:${port}`;
      const database =
        name === 'identity'
          ? 'identity'
          : name.startsWith('feedback')
            ? feedbackDatabase
            : ownDatabaseName(`build_${name}`);
      processes.push(
        spawnEntry(
          APP_SERVICES[name].entry,
          { ...common, PORT: String(port), MONGODB_DB: database },
          { compiled: true },
        ),
      );
    }
    const gatewayPort = await freePort();
    const gatewayEnv = {
      ...common,
      PORT: String(gatewayPort),
      REDIS_URL: process.env.REDIS_URL,
      FEEDBACK_URL: `${urls.feedback}/graphql`,
      CONTACTS_URL: `${urls.contacts}/graphql`,
      ACCOUNTS_URL: `${urls.accounts}/graphql`,
      INTEGRATIONS_URL: `${urls.integrations}/graphql`,
      IDENTITY_URL: urls.identity,
    };
    processes.push(spawnEntry(APP_SERVICES.gateway.entry, gatewayEnv, { compiled: true }));
    try {
      for (const url of [...Object.values(urls), `http://127.0.0.1:${gatewayPort}`])
        await untilReady(url, `the compiled service at ${url}`);
    } catch (error) {
      throw new Error(
        `${(error as Error).message}\n${processes.map((spawned) => spawned.output().slice(-2_000)).join('\n---\n')}`,
        { cause: error },
      );
    }
    const response = await fetch(`http://127.0.0.1:${gatewayPort}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'query($k: String!) { feedbackItems(apiKey: $k) { total } contactItems(apiKey: $k) { total } accountItems(apiKey: $k) { total } }',
        variables: { k: key },
      }),
    });
    expect(((await response.json()) as { data: unknown }).data).toEqual({
      feedbackItems: { total: 0 },
      contactItems: { total: 0 },
      accountItems: { total: 0 },
    });
  });
});
