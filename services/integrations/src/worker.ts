import './workerTelemetry';
import { runService } from '@fi/shared';
import { startIntegrationsWorker } from './background';
import { loadIntegrationsWorkerConfig } from './config';

runService('integrations-worker', () => loadIntegrationsWorkerConfig(), startIntegrationsWorker);
