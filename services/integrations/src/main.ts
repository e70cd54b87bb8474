import './telemetry';
import { runService } from '@fi/shared';
import { loadIntegrationsConfig } from './config';
import { startIntegrationsService } from './server';

runService('integrations', () => loadIntegrationsConfig(), startIntegrationsService);
