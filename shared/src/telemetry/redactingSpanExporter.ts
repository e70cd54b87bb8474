import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { redactApiKeys } from '../logger';

/** Attribute names an instrumentation gives the internal header that carries who is calling. */
const IDENTITY_ATTRIBUTE = /x[-_]fi[-_]identity/i;

function redactValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return redactApiKeys(value);
  if (Array.isArray(value))
    return value.map((item: unknown) => (typeof item === 'string' ? redactApiKeys(item) : item)) as AttributeValue;
  return value;
}

export function redactAttributes(attributes: Attributes): Attributes {
  const redacted: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    redacted[name] = IDENTITY_ATTRIBUTE.test(name) ? '[REDACTED]' : redactValue(value);
  }
  return redacted;
}

export function redactSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: redactApiKeys(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status:
      span.status.message === undefined ? span.status : { ...span.status, message: redactApiKeys(span.status.message) },
    attributes: redactAttributes(span.attributes),
    links: span.links.map((link) =>
      link.attributes ? { ...link, attributes: redactAttributes(link.attributes) } : link,
    ),
    events: span.events.map((event) =>
      event.attributes ? { ...event, attributes: redactAttributes(event.attributes) } : event,
    ),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/**
 * Masks anything that looks like an API key (`fik_...`) in every span before it leaves the process,
 * whichever instrumentation recorded it: a URL with a key in its query string, an error message quoting
 * a document, a header. The instrumentations are already told not to record values; this is the net
 * under them, the same rule the logger applies to every log line.
 */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans.map(redactSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
