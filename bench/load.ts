import autocannon from 'autocannon';

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** A request not answered in this time counts as an error. */
  timeoutSeconds: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Non-2xx answers, timeouts, connection errors and bodies with `errors`: a fast wrong answer is a failure. */
  errors: number;
}

/** One request of a run: its JSON body and the headers that go with it. */
export interface LoadRequest {
  body: string;
  headers: Record<string, string>;
}

/** Called right before and right after the measured run (not the warm-up), e.g. to read CPU counters. */
export interface MeasuredRun {
  started(): void;
  ended(): void;
}

/**
 * Fires `requests` at `url` in turn (wrapping around) with fixed connections; every answer must be 200
 * and free of `errors`. Each run, warm-up included, starts from the first request, so every target
 * gets the same sequence.
 */
export async function load(
  url: string,
  requests: LoadRequest[],
  settings: LoadSettings,
  measured?: MeasuredRun,
): Promise<LoadResult> {
  const request = {
    url,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    requests: rotating(requests),
  };
  if (settings.warmupSeconds > 0) {
    await run(
      {
        ...request,
        connections: settings.connections,
        duration: settings.warmupSeconds,
        timeout: settings.timeoutSeconds,
      },
      [],
    );
  }
  const latencies: number[] = [];
  measured?.started();
  const result = await run(
    {
      ...request,
      requests: rotating(requests),
      connections: settings.connections,
      duration: settings.durationSeconds,
      timeout: settings.timeoutSeconds,
      verifyBody: (text) => text !== undefined && !String(text).includes('"errors"'),
    },
    latencies,
  );
  measured?.ended();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / settings.durationSeconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    errors: result.non2xx + result.errors + result.timeouts + result.mismatches,
  };
}

/** autocannon's per-request hook: the next body and headers of the list, whichever connection asks. */
function rotating(requests: LoadRequest[]): autocannon.Request[] {
  let next = 0;
  return [
    {
      setupRequest: (request) => {
        const { body, headers } = requests[next % requests.length];
        next += 1;
        return { ...request, body, headers: { ...request.headers, ...headers } };
      },
    },
  ];
}

/** Runs autocannon, recording every response time (ms) for exact percentiles. */
function run(options: autocannon.Options, latencies: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
      latencies.push(responseTime),
    );
  });
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
