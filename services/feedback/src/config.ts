import { loadConfig, serviceConfigSchema, type ConfigOf } from '@fi/shared';
import { webhookConfigSchema } from './webhooks/webhookConfig';

export const feedbackConfigSchema = { ...serviceConfigSchema({ port: 4001, database: 'feedback' }), ...webhookConfigSchema };

export type FeedbackConfig = ConfigOf<typeof feedbackConfigSchema>;

export const loadFeedbackConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(feedbackConfigSchema, env);
