import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Types } from 'mongoose';
import { connectMongo, type Connection } from '@fi/shared/database';
import { feedbackImporter } from '@fi/feedback';
import { freePort } from '@fi/cli/embedded';
import type { ExportJob } from './helpers/exports';
import { EXPORT_JOB_FIELDS } from './helpers/exports';
import { spawnFeedbackWithWorker, type SpawnedFeedback } from './helpers/feedbackService';
import { eventually } from './helpers/processes';
import { createKeyIn, signedIdentityFor } from './helpers/keys';
import { PrivateDatabase } from './helpers/privateDatabase';
import { ownDatabaseName } from './helpers/stack';
import { CLI_MAX_TIME_MS } from '@fi/cli';

const ITEMS = 100_000;
const SEED_BATCH = 5_000;
/**
 * The service's processes run with their old generation capped at HEAP_LIMIT_MB, so that V8 collects garbage as it goes
 * instead of letting it pile up (uncapped, the resident growth moved between 58 and 224 MB from run to run
 * with the same code, with the garbage collector's timing): an export that held its records would run out
 * of heap and fail, as a regression should. The live heap of a scan stays at 55-57 MB from the first record
 * to the 30,000th, while holding 30,000 records adds 25 MB (so about 83 MB for these 100,000).
 */
const HEAP_LIMIT_MB = 160;
/**
 * Resident memory each process of the service (the worker exports, the API serves the file) may add to its
 * own start-up peak, with the heap capped: 28 MB measured; a guard against buffers outside the heap (a copy
 * of the file).
 */
const MAX_GROWTH_MB = 96;

/** Resident memory of a process now, and its peak so far, in MB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function gql<T>(url: string, query: string, variables: Record<string, unknown>): Promise<T> {
  // Called directly, the subgraph wants the identity the gateway would sign for the key.
  const headers = { 'content-type': 'application/json', ...signedIdentityFor(variables.k as string) };
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

const START = `mutation($k: String!) { job: startFeedbackExport(apiKey: $k) { ${EXPORT_JOB_FIELDS} } }`;
const GET = `query($k: String!, $id: String!) { job: feedbackExportJob(apiKey: $k, id: $id) { ${EXPORT_JOB_FIELDS} } }`;

/** A database of the test's own with `count` feedback items of one organization, and a read-only key of it. */
async function seeded(count: number, connections: Connection[], uri = process.env.MONGODB_URI as string) {
  const database = ownDatabaseName('export_large');
  const feedback = await connectMongo(uri, database, { maxTimeMs: CLI_MAX_TIME_MS });
  connections.push(feedback);
  const identity = await connectMongo(uri, 'identity', { maxTimeMs: CLI_MAX_TIME_MS });
  const { key, orgId } = await createKeyIn(identity, { tier: 'enterprise', readOnly: true });
  await identity.close();
  const started = Date.now();
  const importFeedback = await feedbackImporter(feedback, () => undefined);
  const base = Date.now() - 86_400_000;
  for (let start = 0; start < count; start += SEED_BATCH) {
    await importFeedback(
      orgId,
      Array.from({ length: Math.min(SEED_BATCH, count - start) }, (_, j) => {
        const i = start + j;
        return {
          source: ['api', 'zendesk', 'intercom'][i % 3],
          title: `Feedback number ${i}`,
          content: `Item ${i} should arrive once, with its "quotes", commas, and newlines\nintact.`,
          // Few authors: each batch counts its items per author, and the export does not care who wrote them.
          email: `person${i % 20}@example.com`,
          sentiment: 'neutral',
          status: 'unread',
          metadata: { i },
          publishedDate: new Date(base + i),
          createdAt: new Date(base + i),
        };
      }),
    );
  }
  return { database, key, feedback, seedSeconds: (Date.now() - started) / 1000 };
}

/**
 * The feedback service as its own processes, so their memory is their own: the API (the export's start, its
 * state, its download) and the worker (the export's run). The worker's theme computation and search
 * indexer are off: they would work through the 100,000 seeded items beside the export (the indexer once
 * the items are older than its grace, partway through), and the memory measured is the export's.
 */
async function serviceOn(database: string, port: number, env: Record<string, string> = {}): Promise<SpawnedFeedback> {
  service = await spawnFeedbackWithWorker({
    MONGODB_DB: database,
    PORT: String(port),
    EXPORT_POLL_MS: '200',
    LOG_LEVEL: 'warn',
    THEMES_INTERVAL_MS: '0',
    SEARCH_INDEX_INTERVAL_MS: '0',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_LIMIT_MB}`.trim(),
    ...env,
  });
  return service;
}

async function stopService(): Promise<void> {
  const running = service;
  service = null;
  await running?.kill();
}

async function settled(url: string, key: string, id: string, timeoutMs: number): Promise<ExportJob> {
  let job: ExportJob | null = null;
  await eventually(
    async () => {
      job = (await gql<{ job: ExportJob }>(url, GET, { k: key, id })).job;
      return job.status !== 'running' && job.status !== 'queued';
    },
    timeoutMs,
    `export ${id}`,
  );
  return job as unknown as ExportJob;
}

/** Streams the file through gunzip line by line: the number of lines and of distinct ids. */
async function countFile(url: string, job: ExportJob): Promise<{ lines: number; ids: number }> {
  const response = await fetch(`${url}/exports/download${new URL(job.url!).search}`);
  expect(response.status).toBe(200);
  const seen = new Set<string>();
  let lines = 0;
  const reader = createInterface({
    input: Readable.fromWeb(response.body as never).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  for await (const line of reader) {
    if (!line) continue;
    lines += 1;
    seen.add((JSON.parse(line) as { id: string }).id);
  }
  return { lines, ids: seen.size };
}

let service: SpawnedFeedback | null = null;
const connections: Connection[] = [];
afterEach(stopService);
afterAll(async () => {
  for (const connection of connections) await connection.dropDatabase().catch(() => undefined);
  await Promise.all(connections.map((connection) => connection.close()));
});

test(
  'when 100,000 items are exported, then the file holds each exactly once and the service memory stays near its start-up peak',
  async () => {
    const { database, key, seedSeconds } = await seeded(ITEMS, connections);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { api, worker } = await serviceOn(database, port);
    const pids = [api.child.pid as number, worker.child.pid as number];
    const startPeaks = pids.map((pid) => memoryOf(pid).peak);

    const exportStarted = Date.now();
    const { job: started } = await gql<{ job: ExportJob }>(url, START, { k: key });
    const done = await settled(url, key, started.id, 600_000);
    const exportSeconds = (Date.now() - exportStarted) / 1000;
    // A failed job's error and the service's warnings stand beside it in the failure message.
    expect({ ...done, log: done.status === 'done' ? '' : worker.output().slice(-4_000) }).toMatchObject({
      status: 'done',
      count: ITEMS,
      total: ITEMS,
      progress: 1,
      error: null,
      log: '',
    });
    expect(await countFile(url, done)).toEqual({ lines: ITEMS, ids: ITEMS });

    const [apiPeak, workerPeak] = pids.map((pid) => memoryOf(pid).peak);
    // The figures docs/export.md quotes.
    console.log(
      `export of ${ITEMS} items: seed ${seedSeconds.toFixed(1)} s, export ${exportSeconds.toFixed(1)} s (${Math.round(ITEMS / exportSeconds)} items/s), ` +
        `worker peak memory ${startPeaks[1].toFixed(0)} MB at start, ${workerPeak.toFixed(0)} MB after the export; ` +
        `API ${startPeaks[0].toFixed(0)} MB at start, ${apiPeak.toFixed(0)} MB after the download`,
    );
    expect(workerPeak - startPeaks[1]).toBeLessThan(MAX_GROWTH_MB);
    expect(apiPeak - startPeaks[0]).toBeLessThan(MAX_GROWTH_MB);
  },
  15 * 60_000,
);

test(
  'when the service is killed with SIGKILL mid-export and restarted, then the export resumes where it was and holds every item once',
  async () => {
    const count = 20_000;
    const { database, key, feedback } = await seeded(count, connections);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { EXPORT_PAGE_SIZE: '100', EXPORT_LEASE_MS: '2000' };
    const { worker } = await serviceOn(database, port, env);

    const { job: started } = await gql<{ job: ExportJob }>(url, START, { k: key });
    let written = 0;
    await eventually(
      async () => (written = (await gql<{ job: ExportJob }>(url, GET, { k: key, id: started.id })).job.count) > 0,
      240_000,
      'the first page',
    );
    // The export runs in the worker: it is the one killed mid-run.
    worker.child.kill('SIGKILL');
    await worker.exited;
    await stopService();
    const cut = await feedback.collection('export_jobs').findOne({ _id: new Types.ObjectId(started.id) });
    expect(cut).toMatchObject({ status: 'running', attempts: 0 });
    expect(cut!.count).toBeLessThan(count);

    await serviceOn(database, port, env);
    const done = await settled(url, key, started.id, 600_000);

    expect(done).toMatchObject({ status: 'done', count, total: count });
    expect(await feedback.collection('export_jobs').findOne({ _id: new Types.ObjectId(started.id) })).toMatchObject({
      attempts: 1,
    });
    expect(await countFile(url, done)).toEqual({ lines: count, ids: count });
    expect(written).toBeGreaterThan(0);
  },
  15 * 60_000,
);

test(
  'when the database stops answering mid-export, then the run gives way and the export resumes where it was once the database answers again',
  async () => {
    const count = 20_000;
    const database = await PrivateDatabase.start();
    const own: Connection[] = [];
    try {
      const { database: name, key, feedback } = await seeded(count, own, database.uri);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const { worker } = await serviceOn(name, port, {
        MONGODB_URI: database.uri,
        MONGODB_TIMEOUT_MS: '1000',
        EXPORT_PAGE_SIZE: '100',
        EXPORT_LEASE_MS: '2000',
      });
      const { job: started } = await gql<{ job: ExportJob }>(url, START, { k: key });
      await eventually(
        async () => (await gql<{ job: ExportJob }>(url, GET, { k: key, id: started.id })).job.count > 0,
        240_000,
        'the first page',
      );

      database.process.kill('SIGSTOP');
      try {
        await eventually(
          () => worker.output().includes('export interrupted by the database'),
          60_000,
          'the run to give way',
        );
      } finally {
        database.process.kill('SIGCONT');
      }
      const done = await settled(url, key, started.id, 600_000);

      expect(done).toMatchObject({ status: 'done', count, total: count, error: null });
      expect(
        (await feedback.collection('export_jobs').findOne({ _id: new Types.ObjectId(started.id) }))?.attempts,
      ).toBeGreaterThanOrEqual(1);
      expect(await countFile(url, done)).toEqual({ lines: count, ids: count });
    } finally {
      await stopService();
      await Promise.all(own.map((connection) => connection.close().catch(() => undefined)));
      await database.destroy();
    }
  },
  15 * 60_000,
);
