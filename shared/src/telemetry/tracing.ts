import type { IncomingMessage } from 'node:http';
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, hostDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createLogger } from '../logger';
import { RedactingSpanExporter } from './redactingSpanExporter';

/** Probes and scrapes: frequent, never part of a user's request, and not worth a trace each. */
const OPERATOR_PATHS = new Set(['/health', '/ready', '/metrics']);

const isOperatorRequest = (request: IncomingMessage) => OPERATOR_PATHS.has((request.url ?? '/').split('?')[0]);

/** The SDK's own failures (a collector that cannot be reached, a refused export) go to the service's log. */
function logSdkProblems(serviceName: string): void {
  const logger = createLogger(serviceName, 'warn');
  const write =
    (level: 'error' | 'warn') =>
    (message: string, ...args: unknown[]) =>
      logger[level]({ component: 'opentelemetry', detail: args.map(String) }, message);
  const ignore = () => undefined;
  diag.setLogger(
    { error: write('error'), warn: write('warn'), info: ignore, debug: ignore, verbose: ignore },
    DiagLogLevel.WARN,
  );
}

/**
 * The OpenTelemetry SDK for one process: spans of incoming HTTP requests, GraphQL parse/validate/execute,
 * outgoing undici calls (the gateway's subgraph pools, with W3C `traceparent` injected), MongoDB
 * operations and Redis commands, batched and sent over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT. The
 * exporter, batch delay, sampler and propagators also read the SDK's standard OTEL_* variables.
 */
export function startTracing(serviceName: string) {
  logSdkProblems(serviceName);
  const provider = new NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) override the process's own name.
    resource: resourceFromAttributes({ 'service.name': serviceName }).merge(
      detectResources({ detectors: [hostDetector, envDetector] }),
    ),
    spanProcessors: [new BatchSpanProcessor(new RedactingSpanExporter(new OTLPTraceExporter()))],
  });
  // AsyncLocalStorage context, W3C trace context and baggage propagation.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: isOperatorRequest, requireParentforOutgoingSpans: true }),
      // No request or response headers are recorded: x-fi-identity carries who is calling.
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Statements are recorded with every value replaced by `?`; background work (pool pings) is not traced.
      new MongoDBInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      // Literal values (an inline apiKey) are replaced by `*` in the recorded document; one span per
      // resolver would cost more than it tells, so only parse, validate and execute are traced.
      new GraphQLInstrumentation({ allowValues: false, ignoreResolveSpans: true }),
    ],
  });
  return provider;
}
