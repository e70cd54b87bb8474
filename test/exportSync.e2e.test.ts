import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { freePort } from '@fi/cli/embedded';
import { insertContacts } from './helpers/fixtures';
import { eventually, ROOT } from './helpers/processes';
import { ADD_FEEDBACK, REMOVE_FEEDBACK } from './helpers/queries';
import { startStack, type Stack } from './helpers/stack';

/** The client example of the README ("Syncing your data"), run as written against a real stack. */
const example = () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Syncing your data'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README.md has no js block under "Syncing your data"');
  return code;
};

let stack: Stack;
let dir: string;
beforeAll(async () => {
  const port = await freePort();
  // A short settle time (2 x MONGODB_MAX_TIME_MS + CHANGES_CLOCK_MARGIN_MS): changes are listed within seconds.
  const env = {
    EXPORT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    EXPORT_POLL_MS: '100',
    MONGODB_MAX_TIME_MS: '4000',
    CHANGES_CLOCK_MARGIN_MS: '500',
  };
  stack = await startStack(env, { gatewayPort: port });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sync-example-'));
  writeFileSync(path.join(dir, 'sync.mjs'), example());
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

interface State {
  cursor: string;
  records: Record<string, { id: string; title?: string; status?: string; name?: string }>;
}

/** One run of the example to the end of the feed; what its state file holds afterwards. */
async function runExample(key: string, resource: string): Promise<State> {
  const stateFile = path.join(dir, `${resource}-${key.slice(-8)}.json`);
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'sync.mjs')], {
    env: {
      PATH: process.env.PATH,
      API_URL: stack.gatewayUrl,
      API_KEY: key,
      RESOURCE: resource,
      STATE_FILE: stateFile,
      POLL_MS: '200',
      FOLLOW: 'once',
    },
    timeout: 120_000,
  });
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  expect(JSON.parse(stdout.trim())).toEqual({ resource, records: Object.keys(state.records).length });
  return state;
}

async function addItem(key: string, title: string): Promise<string> {
  const added = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD_FEEDBACK, {
    apiKey: key,
    input: { source: 'api', title, content: 'text, "quoted"\nline' },
  });
  expect(added.body.errors).toBeUndefined();
  return added.body.data!.addFeedbackItem.id;
}

/** What the API lists now: id, title and status of every item. */
async function currentFeedback(key: string) {
  const list = await stack.gql<{ feedbackItems: { items: Array<{ id: string; title: string; status: string }> } }>(
    `query($k: String!) { feedbackItems(apiKey: $k, take: 100) { items { id title status } } }`,
    { k: key },
  );
  return Object.fromEntries(
    list.body.data!.feedbackItems.items.map((item) => [item.id, { title: item.title, status: item.status }]),
  );
}

const mirrored = (state: State) =>
  Object.fromEntries(
    Object.values(state.records).map((record) => [record.id, { title: record.title, status: record.status }]),
  );

test('when the documented client exports, then resumes from its saved cursor after changes, then its copy is the current feedback exactly', async () => {
  const { key } = await stack.createKey({ readOnly: false });
  const ids: string[] = [];
  for (let i = 0; i < 7; i += 1) ids.push(await addItem(key, `Sync ${i}`));

  const first = await runExample(key, 'feedback');
  expect(Object.keys(first.records).sort()).toEqual([...ids].sort());

  // Changes after the export: one new item, one status change, one removal.
  const added = await addItem(key, 'Added after the export');
  expect(
    (
      await stack.gql(
        `mutation($k: String!, $id: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: "archived") { id } }`,
        { k: key, id: ids[0] },
      )
    ).body.errors,
  ).toBeUndefined();
  expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: ids[1] })).body.errors).toBeUndefined();
  const current = await currentFeedback(key);
  expect(Object.keys(current)).toContain(added);

  // Each run resumes from the saved cursor; the changes are listed once they settled (seconds here).
  let state = first;
  await eventually(
    async () => isDeepStrictEqual(mirrored((state = await runExample(key, 'feedback'))), current),
    90_000,
    'the copy to catch up',
  );
  expect(mirrored(state)).toEqual(current);
  expect(state.records[ids[0]]).toMatchObject({ status: 'archived' });
  expect(state.records[ids[1]]).toBeUndefined();
});

test('when the documented client syncs contacts, then its copy holds every contact of the organization', async () => {
  const { key, orgId } = await stack.createKey({ readOnly: false });
  await insertContacts(stack, orgId, [{ name: 'Ada' }, { name: 'Grace' }]);
  const state = await runExample(key, 'contacts');
  expect(
    Object.values(state.records)
      .map((record) => record.name)
      .sort(),
  ).toEqual(['Ada', 'Grace']);
});
