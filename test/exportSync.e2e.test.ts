import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@fi/cli/embedded';
import { insertContacts } from './helpers/fixtures';
import { ROOT } from './helpers/processes';
import { ADD_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/** The client example of docs/export.md ("Syncing your data"), run as written against a real stack. */
const example = () => {
  const doc = readFileSync(path.join(ROOT, 'docs/export.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Syncing your data'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('docs/export.md has no js block under "Syncing your data"');
  return code;
};

let stack: Stack;
let dir: string;
beforeAll(async () => {
  const port = await freePort();
  stack = await startStack({ EXPORT_PUBLIC_URL: `http://127.0.0.1:${port}`, EXPORT_POLL_MS: '100' }, { gatewayPort: port });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sync-example-'));
  writeFileSync(path.join(dir, 'sync.mjs'), example());
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runExample(key: string, resource: string) {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'sync.mjs')], {
    env: { PATH: process.env.PATH, API_URL: stack.gatewayUrl, API_KEY: key, RESOURCE: resource, POLL_MS: '200' },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim()) as { resource: string; records: number };
}

test('when the documented client syncs feedback and contacts, then its mirror holds every record of the organization', async () => {
  const { key, orgId } = await stack.createKey({ readOnly: false });
  for (let i = 0; i < 7; i += 1) {
    const added = await stack.gql(ADD_FEEDBACK, { apiKey: key, input: { source: 'api', title: `Sync ${i}`, content: 'text, "quoted"\nline' } });
    expect(added.body.errors).toBeUndefined();
  }
  await insertContacts(stack, orgId, [{ name: 'Ada' }, { name: 'Grace' }]);

  expect(await runExample(key, 'feedback')).toMatchObject({ resource: 'feedback', records: 7 });
  expect(await runExample(key, 'contacts')).toMatchObject({ resource: 'contacts', records: 2 });
});
