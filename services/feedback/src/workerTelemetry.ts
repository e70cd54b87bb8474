// Imported first by worker.ts: tracing must hook http, mongodb and ioredis before they load. The worker's
// spans carry its own service name, apart from the API's.
import { startTelemetry } from '@fi/shared/telemetry';

startTelemetry('feedback-worker');
