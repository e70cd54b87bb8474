import './workerTelemetry';
import { runWorkerProcess } from '@fi/shared';
import { startIntegrationsWorker } from './background';
import { loadIntegrationsWorkerConfig } from './config';

runWorkerProcess('integrations-worker', () => loadIntegrationsWorkerConfig(), startIntegrationsWorker);
