import { ThemeStore } from '@fi/feedback';
import { connectMongo, type Connection } from '@fi/shared/database';
import { ownDatabaseName } from './helpers/stack';

/**
 * The theme worker's run (its lease) and people's edits of the themes are written by two processes at
 * once: the worker takes and gives back the lease while the API marks an edit. On an engine that writes a
 * document back whole without isolation, an edit written into the run document could put back a lease just
 * given back, and no computation would run for the organization until it expired (it failed so on the
 * embedded FerretDB before its write locks).
 */
let connection: Connection;
let store: ThemeStore;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGODB_URI!, ownDatabaseName('theme_runs'));
  store = new ThemeStore(connection);
  await store.ensureIndexes();
});
afterAll(() => connection.close());

test('when a person edits the themes, then the worker’s run document is not written: the API and the worker never write one document', async () => {
  const orgId = 'org-theme-run-apart';
  expect(await store.lease(orgId, 60_000)).toBe(true);
  await store.release(orgId);
  const run = await store.run(orgId);
  const fingerprint = await store.fingerprint(orgId);
  await store.recomputeSoon(orgId, new Date());
  expect(await store.run(orgId)).toEqual(run);
  expect(await store.fingerprint(orgId)).not.toBe(fingerprint);
});

test('when people edit the themes while the worker takes and gives back its lease, then the lease is given back every time and each edit changes the fingerprint', async () => {
  const orgId = 'org-theme-run-race';
  let fingerprint = await store.fingerprint(orgId);
  for (let round = 0; round < 25; round += 1) {
    const [taken] = await Promise.all([
      (async () => {
        const leased = await store.lease(orgId, 60_000);
        if (leased) await store.release(orgId);
        return leased;
      })(),
      ...Array.from({ length: 4 }, (_, i) => store.recomputeSoon(orgId, new Date(Date.now() + round * 10 + i))),
    ]);
    expect(taken).toBe(true);
    expect((await store.run(orgId))?.leaseUntil).toBeUndefined();
    const next = await store.fingerprint(orgId);
    expect(next).not.toBe(fingerprint);
    fingerprint = next;
  }
});
