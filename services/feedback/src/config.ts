import { loadConfig, serviceConfigSchema } from '@fi/shared';

export const feedbackConfigSchema = serviceConfigSchema({ port: 4001, database: 'feedback' });

export const loadFeedbackConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(feedbackConfigSchema, env);
