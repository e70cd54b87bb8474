import pino, { type Logger } from 'pino';
import { traceLogFields } from './telemetry/logContext';

export type { Logger };

/** Every path where an API key, password, session or signed identity can appear in a log record; pino replaces them before writing. */
const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  'variables.apiKey',
  'req.headers["x-api-key"]',
  'headers["x-fi-identity"]',
  'headers.cookie',
  'headers["x-csrf-token"]',
  'password',
  '*.password',
  'variables.password',
  'token',
  '*.token',
];

/** Raw API keys look like `fik_<43 base64url chars>`; anything matching is masked wherever it appears. */
export const API_KEY_PATTERN = /fik_[A-Za-z0-9_-]{8,}/g;

export function redactApiKeys(text: string): string {
  return text.replace(API_KEY_PATTERN, 'fik_[REDACTED]');
}

export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      mixin: traceLogFields,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
      // Errors can carry a subgraph's response or a query with a key in it; scrub the whole record.
      serializers: {
        err: (error: Error) => JSON.parse(redactApiKeys(JSON.stringify(pino.stdSerializers.err(error)))) as unknown,
      },
      hooks: {
        // Messages and error texts can quote a query that holds a key inline; mask those too.
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? redactApiKeys(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
    },
    destination,
  );
}
