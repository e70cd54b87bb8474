import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiKeyStore, type Connection } from '@fi/shared';
import { FeedbackRepository } from '@fi/feedback/src/data/feedbackRepository';
import { freePort } from '../cli/src/embedded/freePort';
import type { ExportJob } from './helpers/exports';
import { EXPORT_JOB_FIELDS } from './helpers/exports';
import { eventually, spawnEntry, untilReady, type Spawned } from './helpers/processes';
import { newOrgId, ownDatabaseName } from './helpers/stack';
import { connectMongo } from '@fi/shared';
import { CLI_MAX_TIME_MS } from '../cli/src/databases';

const ITEMS = 100_000;
const SEED_BATCH = 5_000;
/** Peak memory the service may add over its idle size while it exports and serves the file. */
const MAX_GROWTH_MB = 96;

/** Resident memory of a process now, and its peak so far, in MB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function gql<T>(url: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

const START = `mutation($k: String!) { job: startFeedbackExport(apiKey: $k) { ${EXPORT_JOB_FIELDS} } }`;
const GET = `query($k: String!, $id: String!) { job: feedbackExportJob(apiKey: $k, id: $id) { ${EXPORT_JOB_FIELDS} } }`;

/**
 * The feedback service as its own process (so its memory is its own), over a database of this test's own
 * holding 100,000 items of one organization: the export survives a SIGKILL in the middle, the file has
 * every item once, and the service's peak memory stays near its idle size.
 */
describe('a 100,000-item export', () => {
  let connections: Connection[] = [];
  let service: Spawned | null = null;
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    for (const connection of connections) await connection.dropDatabase().catch(() => undefined);
    await Promise.all(connections.map((connection) => connection.close()));
  });

  test('when the service is killed mid-export and restarted, then the export resumes and the file holds every item exactly once in flat memory', async () => {
    const uri = process.env.MONGODB_URI as string;
    const database = ownDatabaseName('export_large');
    const feedback = await connectMongo(uri, database, { maxTimeMs: CLI_MAX_TIME_MS });
    const auth = await connectMongo(uri, 'auth', { maxTimeMs: CLI_MAX_TIME_MS });
    connections = [feedback];
    const orgId = newOrgId();
    const { key } = await new ApiKeyStore(auth).create({ orgId, tier: 'enterprise', readOnly: true });
    await auth.close();

    const seedStarted = Date.now();
    const repository = new FeedbackRepository(feedback);
    const base = Date.now() - 86_400_000;
    for (let start = 0; start < ITEMS; start += SEED_BATCH) {
      await repository.insertMany(
        orgId,
        Array.from({ length: SEED_BATCH }, (_, j) => {
          const i = start + j;
          return {
            source: ['api', 'zendesk', 'intercom'][i % 3],
            title: `Feedback number ${i}`,
            content: `The export of item ${i} should arrive once, with its "quotes", commas, and newlines\nintact.`,
            email: `person${i % 5_000}@example.com`,
            sentiment: 'neutral',
            status: 'unread',
            metadata: { i, plan: i % 2 ? 'pro' : 'free' },
            publishedDate: new Date(base + i),
            createdAt: new Date(base + i),
          };
        }),
      );
    }
    const seedSeconds = (Date.now() - seedStarted) / 1000;

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { MONGODB_DB: database, PORT: String(port), EXPORT_LEASE_MS: '3000', EXPORT_POLL_MS: '200', MONGODB_MAX_TIME_MS: '60000', LOG_LEVEL: 'warn' };
    service = spawnEntry('services/feedback/src/index.ts', env);
    await untilReady(url, 'the feedback service');
    const idle = memoryOf(service.child.pid as number);

    const exportStarted = Date.now();
    const { job: started } = await gql<{ job: ExportJob }>(url, START, { k: key });
    await eventually(async () => (await gql<{ job: ExportJob }>(url, GET, { k: key, id: started.id })).job.count >= 20_000, 240_000, 'a fifth of the export');
    service.child.kill('SIGKILL');
    await service.exited;
    const cut = (await gql<{ job: ExportJob }>(url, GET, { k: key, id: started.id }).catch(() => null)) === null;
    expect(cut).toBe(true);

    service = spawnEntry('services/feedback/src/index.ts', env);
    await untilReady(url, 'the restarted feedback service');
    let job: ExportJob | null = null;
    await eventually(
      async () => {
        job = (await gql<{ job: ExportJob }>(url, GET, { k: key, id: started.id })).job;
        return job.status !== 'running' && job.status !== 'queued';
      },
      300_000,
      'the resumed export',
    );
    const exportSeconds = (Date.now() - exportStarted) / 1000;
    const done = job as unknown as ExportJob;
    expect(done).toMatchObject({ status: 'done', count: ITEMS, total: ITEMS, progress: 1 });

    const { pathname, search } = new URL(done.url!);
    const response = await fetch(`${url}/exports/download${search}`);
    expect(pathname).toBe('/exports/feedback');
    expect(response.status).toBe(200);
    const seen = new Set<string>();
    let lines = 0;
    const reader = createInterface({ input: Readable.fromWeb(response.body as never).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of reader) {
      if (!line) continue;
      lines += 1;
      seen.add((JSON.parse(line) as { id: string }).id);
    }
    expect(lines).toBe(ITEMS);
    expect(seen.size).toBe(ITEMS);

    const after = memoryOf(service.child.pid as number);
    // Reported with the test's output: the figures the documentation quotes.
    console.log(
      `export of ${ITEMS} items: seed ${seedSeconds.toFixed(1)} s, export incl. SIGKILL and restart ${exportSeconds.toFixed(1)} s, ` +
        `service memory idle ${idle.rss.toFixed(0)} MB, peak after resume and download ${after.peak.toFixed(0)} MB`,
    );
    expect(after.peak - idle.rss).toBeLessThan(MAX_GROWTH_MB);
  }, 15 * 60_000);
});
