// Imported first by index.ts: tracing must hook http, mongodb, ioredis and graphql before they load.
import { startTelemetry } from '@fi/shared/telemetry';

startTelemetry('gateway');
