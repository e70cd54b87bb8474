import './receiverTelemetry';
import { runService } from '@fi/shared';
import { loadIntegrationsReceiverConfig } from './config';
import { startIntegrationsReceiver } from './receiver';

runService('integrations-receiver', () => loadIntegrationsReceiverConfig(), startIntegrationsReceiver);
