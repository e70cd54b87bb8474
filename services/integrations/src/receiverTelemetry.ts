// Imported first by receiverMain.ts: the receiver's spans carry its own service name.
import { startTelemetry } from '@fi/shared/telemetry';

startTelemetry('integrations-receiver');
