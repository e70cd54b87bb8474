import './telemetry';
import { runService } from '@fi/shared';
import { loadContactsConfig } from './config';
import { startContactsService } from './server';

runService('contacts', () => loadContactsConfig(), startContactsService);
