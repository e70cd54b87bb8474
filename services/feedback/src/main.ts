import './telemetry';
import { runService } from '@fi/shared';
import { loadFeedbackConfig } from './config';
import { startFeedbackService } from './server';

runService('feedback', () => loadFeedbackConfig(), startFeedbackService);
