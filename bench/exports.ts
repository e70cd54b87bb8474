import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';

/** One export of the whole seeded organization, timed by the service (started to finished) and downloaded. */
export interface ExportPoint {
  format: string;
  items: number;
  /** Queued to done, as the job reports it (startedAt to finishedAt). */
  exportSeconds: number;
  itemsPerSecond: number;
  /** GET of the file through the gateway, decompressed on the fly. */
  downloadSeconds: number;
  gzipMegabytes: number;
}

const JOB = 'id status count url error startedAt finishedAt';

async function graphql<T>(url: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors?.length) throw new Error(`export failed: ${body.errors[0].message}`);
  return body.data as T;
}

/**
 * Export throughput: the organization's feedback as NDJSON and as CSV, one after the other, each timed
 * from the job's own start and end (the service's clock, not the poll), then downloaded through the
 * gateway (`graphqlUrl`'s origin) and counted line by line.
 */
export async function timeExports(
  graphqlUrl: string,
  apiKey: string,
  say: (line: string) => void,
): Promise<ExportPoint[]> {
  const points: ExportPoint[] = [];
  for (const format of ['ndjson', 'csv']) {
    type Job = {
      id: string;
      status: string;
      count: number;
      url: string | null;
      error: string | null;
      startedAt: string | null;
      finishedAt: string | null;
    };
    let { job } = await graphql<{ job: Job }>(
      graphqlUrl,
      `mutation($k: String!, $f: String) { job: startFeedbackExport(apiKey: $k, format: $f) { ${JOB} } }`,
      { k: apiKey, f: format },
    );
    const deadline = Date.now() + 30 * 60_000;
    while (job.status === 'queued' || job.status === 'running') {
      if (Date.now() > deadline) throw new Error(`export ${job.id} did not finish in 30 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      ({ job } = await graphql<{ job: Job }>(
        graphqlUrl,
        `query($k: String!, $id: String!) { job: feedbackExportJob(apiKey: $k, id: $id) { ${JOB} } }`,
        { k: apiKey, id: job.id },
      ));
    }
    if (job.status !== 'done' || !job.url || !job.startedAt || !job.finishedAt)
      throw new Error(`export ${job.id} ${job.status}: ${job.error}`);
    const exportSeconds = (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000;

    const downloadStarted = Date.now();
    const { pathname, search } = new URL(job.url);
    const response = await fetch(new URL(`${pathname}${search}`, graphqlUrl));
    if (!response.ok || !response.body) throw new Error(`download of export ${job.id} answered ${response.status}`);
    let bytes = 0;
    let lines = 0;
    const counted = Readable.fromWeb(response.body as never);
    counted.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(
      counted,
      createGunzip(),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const byte of chunk) if (byte === 10) lines += 1;
          done();
        },
      }),
    );
    const downloadSeconds = (Date.now() - downloadStarted) / 1000;
    const expectedLines = format === 'csv' ? job.count + 1 : job.count;
    // CSV fields may hold line breaks of their own: only NDJSON's lines are exactly its records.
    if (format === 'ndjson' && lines !== expectedLines)
      throw new Error(`export ${job.id}: ${lines} lines for ${job.count} records`);
    const point = {
      format,
      items: job.count,
      exportSeconds,
      itemsPerSecond: Math.round(job.count / exportSeconds),
      downloadSeconds,
      gzipMegabytes: bytes / 1_048_576,
    };
    say(
      `export ${format}: ${point.items} items in ${exportSeconds.toFixed(1)} s (${point.itemsPerSecond} items/s), download ${downloadSeconds.toFixed(1)} s, ${point.gzipMegabytes.toFixed(1)} MB gzip`,
    );
    points.push(point);
  }
  return points;
}

/** The markdown table of `npm run bench`'s report. */
export function exportTable(points: ExportPoint[]): string[] {
  if (points.length === 0) return [];
  return [
    "Export throughput (the whole organization's feedback, one export at a time; time from the job's start to its end):",
    '',
    '| Format | Items | Export s | Items/s | Download s (through the gateway, gunzipped) | File MB (gzip) |',
    '|---|---:|---:|---:|---:|---:|',
    ...points.map(
      (p) =>
        `| ${p.format} | ${p.items.toLocaleString('en')} | ${p.exportSeconds.toFixed(1)} | ${p.itemsPerSecond.toLocaleString('en')} | ${p.downloadSeconds.toFixed(1)} | ${p.gzipMegabytes.toFixed(1)} |`,
    ),
  ];
}
