// Imported first by main.ts: tracing must hook http, mongodb and graphql before they load.
import { startTelemetry } from '@fi/shared/telemetry';

startTelemetry('integrations');
