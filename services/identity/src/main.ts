import './telemetry';
import { runService } from '@fi/shared';
import { loadIdentityConfig } from './config';
import { startIdentityService } from './server';

runService('identity', () => loadIdentityConfig(), startIdentityService);
