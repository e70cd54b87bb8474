import './telemetry';
import { runService } from '@fi/shared';
import { loadAccountsConfig } from './config';
import { startAccountsService } from './server';

runService('accounts', () => loadAccountsConfig(), startAccountsService);
