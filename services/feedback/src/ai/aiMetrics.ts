import { Counter, Histogram, type Registry } from 'prom-client';

export type ModelOperation = 'embeddings' | 'chat';

/** What the model client records, per model and operation (see docs/operations.md, Metrics). */
export interface AiMetrics {
  /** One call as its caller sees it (all its tries): `ok` or the reason it failed. */
  call(model: string, operation: ModelOperation, outcome: string, seconds: number): void;
  /** One failed try, retried or not. */
  failure(model: string, operation: ModelOperation, reason: string): void;
  tokens(model: string, kind: 'prompt' | 'completion', count: number): void;
}

/** Buckets in seconds, from 50 ms to 60 s: a model answers in tenths of a second to tens of seconds. */
const MODEL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

export function createAiMetrics(registry: Registry): AiMetrics {
  const calls = new Counter({
    name: 'fi_ai_calls_total',
    help: 'Calls to the model server by model, operation and outcome (ok, or the reason of the failure after every try)',
    labelNames: ['model', 'operation', 'outcome'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'fi_ai_call_duration_seconds',
    help: 'Duration of a call to the model server, tries and waits between them included',
    labelNames: ['model', 'operation'],
    buckets: MODEL_BUCKETS,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'fi_ai_failures_total',
    help: 'Failed tries of calls to the model server by model, operation and reason (connection, timeout, rate-limited, server, rejected, malformed, budget)',
    labelNames: ['model', 'operation', 'reason'],
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'fi_ai_tokens_total',
    help: 'Tokens the model server counted (its usage), by model and kind (prompt, completion)',
    labelNames: ['model', 'kind'],
    registers: [registry],
  });
  return {
    call(model, operation, outcome, duration) {
      calls.inc({ model, operation, outcome });
      seconds.observe({ model, operation }, duration);
    },
    failure: (model, operation, reason) => failures.inc({ model, operation, reason }),
    tokens: (model, kind, count) => {
      if (count > 0) tokens.inc({ model, kind }, count);
    },
  };
}
