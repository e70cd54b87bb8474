import './workerTelemetry';
import { runWorkerProcess } from '@fi/shared';
import { startFeedbackWorker } from './background';
import { loadFeedbackWorkerConfig } from './config';

runWorkerProcess('feedback-worker', () => loadFeedbackWorkerConfig(), startFeedbackWorker);
