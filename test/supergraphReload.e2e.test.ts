import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually, ROOT } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';

/** The gateway takes a new supergraph without a restart, and keeps the old one when the new one is broken. */

const ORIGINAL = readFileSync(path.join(ROOT, 'supergraph.graphql'), 'utf8');
const OLD_DESCRIPTION = '"""Feedback lives in the feedback service; this service adds its author."""';
const NEW_DESCRIPTION = 'Reloaded without a restart';
const DESCRIPTION = '{ __type(name: "FeedbackItem") { description } }';
const LIST = 'query($k: String!) { feedbackItems(apiKey: $k, take: 1) { total } }';

let dir: string;
let file: string;
let stack: Stack;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fi-supergraph-'));
  file = path.join(dir, 'supergraph.graphql');
  writeFileSync(file, ORIGINAL);
  // A short poll, so the test does not depend on file events alone (some file systems send none).
  stack = await startStack({ SUPERGRAPH_PATH: file, SUPERGRAPH_POLL_MS: '500' });
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

const description = async () =>
  (await stack.gql<{ __type: { description: string } }>(DESCRIPTION)).body.data?.__type.description;

async function reloads(outcome: string): Promise<number> {
  const text = await (await fetch(`${stack.gateway.url}/metrics`)).text();
  return Number(
    new RegExp(`^fi_gateway_supergraph_reloads_total\\{[^}]*outcome="${outcome}"[^}]*\\} (\\S+)$`, 'm').exec(
      text,
    )?.[1] ?? NaN,
  );
}

test('when the supergraph file changes under load, then the gateway switches to it and no request fails', async () => {
  expect(ORIGINAL).toContain(OLD_DESCRIPTION);
  expect(await description()).not.toBe(NEW_DESCRIPTION);
  // Both series exist from the start, so a rejection alert works before the first reload.
  expect(await reloads('applied')).toBe(0);
  expect(await reloads('rejected')).toBe(0);
  const { key } = await stack.createKey();

  const failures: string[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < 200) {
      sent += 1;
      const response = await stack.gql(LIST, { k: key });
      if (response.status !== 200 || response.body.errors)
        failures.push(`${response.status} ${JSON.stringify(response.body.errors)}`);
    }
  };
  const load = Promise.all(Array.from({ length: 10 }, worker));
  writeFileSync(file, ORIGINAL.replace(OLD_DESCRIPTION, `"""${NEW_DESCRIPTION}"""`));
  await eventually(async () => (await description()) === NEW_DESCRIPTION, 20_000, 'the new supergraph served');
  await load;

  expect(sent).toBeGreaterThanOrEqual(200);
  expect(failures).toEqual([]);
  expect(await reloads('applied')).toBe(1);
  const ready = await fetch(`${stack.gateway.url}/ready`);
  const body = (await ready.json()) as { checks: { supergraph: { ok: boolean; lastError: unknown; hash: string } } };
  expect(body.checks.supergraph).toMatchObject({
    ok: true,
    lastError: null,
    hash: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
});

test('when the new supergraph does not parse, then the old one keeps serving, the rejection is counted and /ready stays 200 and says why', async () => {
  const rejectedBefore = await reloads('rejected');
  const servedBefore = await description();
  const readyBefore = (await (await fetch(`${stack.gateway.url}/ready`)).json()) as {
    checks: { supergraph: { hash: string } };
  };

  writeFileSync(file, 'schema { query: \n type {');
  await eventually(
    async () => (await reloads('rejected')) === rejectedBefore + 1,
    20_000,
    'the broken supergraph rejected',
  );

  expect(await description()).toBe(servedBefore);
  const ready = await fetch(`${stack.gateway.url}/ready`);
  expect(ready.status).toBe(200);
  const body = (await ready.json()) as { ready: boolean; checks: { supergraph: Record<string, unknown> } };
  expect(body.ready).toBe(true);
  expect(body.checks.supergraph).toMatchObject({
    ok: true,
    hash: readyBefore.checks.supergraph.hash,
    lastError: { reason: expect.any(String), hash: expect.stringMatching(/^[0-9a-f]{64}$/), at: expect.any(String) },
    detail: expect.stringContaining('stays ready'),
  });
  // Still one rejection: the same broken content is not counted again by the polls since.
  const { key } = await stack.createKey();
  expect((await stack.gql(LIST, { k: key })).body.errors).toBeUndefined();
  expect(await reloads('rejected')).toBe(rejectedBefore + 1);
});
