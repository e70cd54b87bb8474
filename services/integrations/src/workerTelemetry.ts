// Imported first by worker.ts: the worker's spans carry its own service name, apart from the API's.
import { startTelemetry } from '@fi/shared/telemetry';

startTelemetry('integrations-worker');
