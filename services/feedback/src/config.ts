import { ConfigError, loadConfig, parse, serviceConfigSchema, type ConfigOf } from '@fi/shared';
import { aiConfigProblems, aiConfigSchema } from './ai';
import { webhookConfigSchema } from './webhooks';

export const feedbackConfigSchema = {
  ...serviceConfigSchema({ port: 4001, database: 'feedback' }),
  ...webhookConfigSchema,
  ...aiConfigSchema,
  themesIntervalMs: {
    env: 'THEMES_INTERVAL_MS',
    doc: 'how often each instance looks for organizations whose feedback changed and recomputes their themes (0: never, for instances that only answer requests)',
    default: 20_000,
    parse: parse.int(0, 3_600_000),
  },
  searchIndexIntervalMs: {
    env: 'SEARCH_INDEX_INTERVAL_MS',
    doc: 'how often each instance adds new feedback to the search index (0: never, for instances that only answer requests; searches then match the unindexed items by regex)',
    default: 5_000,
    parse: parse.int(0, 3_600_000),
  },
  searchIndexGraceMs: {
    env: 'SEARCH_INDEX_GRACE_MS',
    doc: 'age of the newest items the search indexer takes: longer than any write of an item takes, so none commits behind it (younger items are matched by regex)',
    default: 60_000,
    parse: parse.int(0, 3_600_000),
  },
};

export type FeedbackConfig = ConfigOf<typeof feedbackConfigSchema>;

/** The validated configuration; half a model configuration (see ai/aiSettings.ts) stops the start like a bad variable. */
export function loadFeedbackConfig(env: NodeJS.ProcessEnv = process.env): FeedbackConfig {
  const config = loadConfig(feedbackConfigSchema, env);
  const problems = aiConfigProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
