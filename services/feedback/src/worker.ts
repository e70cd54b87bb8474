import './workerTelemetry';
import { runService } from '@fi/shared';
import { startFeedbackWorker } from './background';
import { loadFeedbackWorkerConfig } from './config';

runService('feedback-worker', () => loadFeedbackWorkerConfig(), startFeedbackWorker);
