import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * A pino mixin: the active trace and span ids on every log line written while a request is traced, so
 * a trace leads to its log lines and back. Without tracing there is no active span and nothing is added.
 * A fresh object each time: pino merges the line's own fields into it.
 */
export function traceLogFields(): { traceId?: string; spanId?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
