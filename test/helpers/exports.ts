import { gunzipSync } from 'node:zlib';
import { eventually } from './processes';
import type { Stack } from './stack';

export const EXPORT_JOB_FIELDS =
  'id resource format status progress count total url expiresAt error createdAt startedAt finishedAt';

export interface ExportJob {
  id: string;
  resource: string;
  format: string;
  status: string;
  progress: number;
  count: number;
  total: number | null;
  url: string | null;
  expiresAt: string | null;
  error: string | null;
}

/** Each resource's operations follow one rule: start<Resource>Export, <resource>ExportJob, <resource>Exports. */
export const exportOperations = (resource: 'feedback' | 'contacts' | 'accounts') => {
  const Resource = resource[0].toUpperCase() + resource.slice(1);
  const filterType = `${Resource}ExportFilter`;
  return {
    start: `mutation($k: String!, $format: String, $filter: ${filterType}) { job: start${Resource}Export(apiKey: $k, format: $format, filter: $filter) { ${EXPORT_JOB_FIELDS} } }`,
    get: `query($k: String!, $id: String!) { job: ${resource}ExportJob(apiKey: $k, id: $id) { ${EXPORT_JOB_FIELDS} } }`,
    list: `query($k: String!, $take: Int) { jobs: ${resource}Exports(apiKey: $k, take: $take) { ${EXPORT_JOB_FIELDS} } }`,
  };
};

export async function startExport(
  stack: Stack,
  resource: 'feedback' | 'contacts' | 'accounts',
  key: string,
  variables: Record<string, unknown> = {},
) {
  const response = await stack.gql<{ job: ExportJob }>(exportOperations(resource).start, { k: key, ...variables });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.job;
}

/** Polls the job until it is no longer queued or running (bounded). */
export async function settledExport(
  stack: Stack,
  resource: 'feedback' | 'contacts' | 'accounts',
  key: string,
  id: string,
  timeoutMs = 60_000,
) {
  let job: ExportJob | null = null;
  await eventually(
    async () => {
      const response = await stack.gql<{ job: ExportJob }>(exportOperations(resource).get, { k: key, id });
      job = response.body.data?.job ?? null;
      return job !== null && !['queued', 'running'].includes(job.status);
    },
    timeoutMs,
    `export ${id} to finish`,
  );
  return job as unknown as ExportJob;
}

/** Downloads an export's url through this stack's gateway (the url names the configured public origin). */
export async function download(stack: Stack, url: string): Promise<{ status: number; headers: Headers; text: string }> {
  const { pathname, search } = new URL(url);
  const response = await fetch(`${stack.gateway.url}${pathname}${search}`);
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    text: response.ok ? gunzipSync(body).toString('utf8') : body.toString('utf8'),
  };
}

export const ndjsonRows = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
