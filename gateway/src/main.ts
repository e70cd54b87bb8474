import './telemetry';
import { runService } from '@fi/shared';
import { loadGatewayConfig } from './config';
import { startGateway } from './server';

runService('gateway', () => loadGatewayConfig(), startGateway);
