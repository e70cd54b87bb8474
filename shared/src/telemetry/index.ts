import { ConfigError, loadConfig, telemetryConfigSchema } from '../config';
import type { startTracing } from './tracing';

let tracing: ReturnType<typeof startTracing> | null = null;

/**
 * Starts tracing for this process when OTEL_EXPORTER_OTLP_ENDPOINT is set. The instrumentations patch
 * http, mongodb, ioredis and graphql as those modules load, so each process's entry imports its
 * `telemetry.ts` before anything else. When the variable is unset the SDK is not even loaded: no hooks,
 * no spans, no cost.
 */
export function startTelemetry(serviceName: string): void {
  if (tracing) return;
  let endpoint: string;
  try {
    endpoint = loadConfig(telemetryConfigSchema).otlpEndpoint;
  } catch (error) {
    // The service's own configuration names the bad value and exits; tracing just stays off.
    if (error instanceof ConfigError) return;
    throw error;
  }
  if (!endpoint) return;
  // Synchronous on purpose: the hooks must be in place before the entry's next import runs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const tracingModule = require('./tracing') as { startTracing: typeof startTracing };
  tracing = tracingModule.startTracing(serviceName);
}

/** How long a shutdown waits for the last spans to reach the collector (it may be the thing that is down). */
const FLUSH_TIMEOUT_MS = 2_000;

/** Sends the spans still buffered, so the last requests before a shutdown are not lost. */
export async function stopTelemetry(): Promise<void> {
  const running = tracing;
  tracing = null;
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
  });
  // A failed last export is already logged by the SDK; it must not turn a clean shutdown into a failure.
  await Promise.race([running.shutdown().catch(() => undefined), timeout]);
  clearTimeout(timer);
}
