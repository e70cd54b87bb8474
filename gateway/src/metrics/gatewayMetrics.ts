import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from '@fi/shared';

/**
 * The gateway's metrics. Labels are bounded: operations are named by their root fields (bounded by
 * the schema), codes by the error vocabulary, tiers and subgraphs by configuration. No label ever
 * holds an API key, a key id, an address or a client-chosen name.
 */
export class GatewayMetrics {
  readonly requests: Counter<'operation' | 'code'>;
  readonly requestDuration: Histogram<'operation'>;
  readonly subgraphFetchDuration: Histogram<'subgraph'>;
  readonly subgraphErrors: Counter<'subgraph' | 'kind'>;
  readonly rateLimited: Counter<'tier'>;
  readonly authFailures: Counter;
  readonly insuranceMode: Gauge;
  readonly supergraphReloads: Counter<'outcome'>;
  readonly documentParses: Counter<'by'>;
  /** Labelled series by label values, so a request does not hash its labels again (both are bounded). */
  private readonly requestSeries = new Map<string, { count: () => void; observe: (seconds: number) => void }>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'fi_gateway_requests_total',
      help: 'GraphQL requests by root fields and outcome (OK or the first error code)',
      labelNames: ['operation', 'code'],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'fi_gateway_request_duration_seconds',
      help: 'Time from receiving a GraphQL request to sending its response',
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.subgraphFetchDuration = new Histogram({
      name: 'fi_gateway_subgraph_fetch_duration_seconds',
      help: 'Time of one call from the gateway to a subgraph',
      labelNames: ['subgraph'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.subgraphErrors = new Counter({
      name: 'fi_gateway_subgraph_errors_total',
      help: 'Failed subgraph calls: unreachable, timeout, http (non-2xx), or an internal/unavailable error in the answer',
      labelNames: ['subgraph', 'kind'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'fi_gateway_rate_limited_total',
      help: 'Requests refused with RATE_LIMITED, by key tier (invalid_key: the guard against key guessing)',
      labelNames: ['tier'],
      registers,
    });
    this.authFailures = new Counter({
      name: 'fi_gateway_auth_failures_total',
      help: 'Requests refused with UNAUTHENTICATED (missing, malformed, unknown or revoked key)',
      registers,
    });
    this.documentParses = new Counter({
      name: 'fi_gateway_document_parses_total',
      help: 'GraphQL documents parsed: by the request gate (once per new document), by apollo (a document the gate does not hold, or not valid)',
      labelNames: ['by'],
      registers,
    });
    this.insuranceMode = new Gauge({
      name: 'fi_gateway_rate_limiter_insurance_mode',
      help: '1 while Redis is unavailable and rate limits are counted in this process, else 0',
      registers,
    });
    this.supergraphReloads = new Counter({
      name: 'fi_gateway_supergraph_reloads_total',
      help: 'New supergraph versions seen while running: applied, or rejected (did not parse or compose; the old one still serves)',
      labelNames: ['outcome'],
      registers,
    });
    // Both series exist from the start, so a rate() or an alert on `rejected` works before the first one.
    for (const outcome of ['applied', 'rejected']) this.supergraphReloads.inc({ outcome }, 0);
  }

  /** One GraphQL request answered: its count by operation and outcome, and its duration by operation. */
  observeRequest(operation: string, code: string, seconds: number): void {
    const key = `${operation}\u0000${code}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const counter = this.requests.labels({ operation, code });
      const histogram = this.requestDuration.labels({ operation });
      series = { count: () => counter.inc(), observe: (value) => histogram.observe(value) };
      this.requestSeries.set(key, series);
    }
    series.count();
    series.observe(seconds);
  }
}
