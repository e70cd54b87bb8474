import { AI_CHAT_USES, AI_EMBEDDING_USES, AI_USES, type AiConfig, type AiUse } from './aiConfig';

/** The model configuration in force: what the client, the worker and the port are built from. */
export interface AiSettings {
  baseUrl: string;
  apiKey: string;
  /** The embedding model, when one is named and at least one of its uses is on. */
  embeddingModel: string | null;
  /** The chat model, when one is named and at least one of its uses is on. */
  chatModel: string | null;
  uses: ReadonlySet<AiUse>;
  timeoutMs: number;
  monthlyTokens: number;
  embeddingBatch: number;
  intervalMs: number;
  itemsPerMinute: number;
}

const modelOf = {
  embedding: { env: 'AI_EMBEDDING_MODEL', uses: AI_EMBEDDING_USES as readonly AiUse[] },
  chat: { env: 'AI_CHAT_MODEL', uses: AI_CHAT_USES as readonly AiUse[] },
};

/**
 * What is missing from half a configuration, one line each (empty when the configuration is whole or
 * absent): a start must not run with a model the operator believes is in use and is not.
 */
export function aiConfigProblems(config: AiConfig): string[] {
  const problems: string[] = [];
  const server = !!config.openaiBaseUrl || !!config.openaiApiKey;
  if (config.openaiBaseUrl && !config.openaiApiKey)
    problems.push(
      'OPENAI_API_KEY is required when OPENAI_BASE_URL is set (any non-empty value for a server that ignores it, such as Ollama)',
    );
  if (config.openaiApiKey && !config.openaiBaseUrl)
    problems.push(
      'OPENAI_BASE_URL is required when OPENAI_API_KEY is set (e.g. https://api.openai.com/v1 or http://localhost:11434/v1)',
    );
  const named = { embedding: !!config.aiEmbeddingModel, chat: !!config.aiChatModel };
  if (!server) {
    for (const [kind, { env }] of Object.entries(modelOf))
      if (named[kind as keyof typeof named])
        problems.push(`${env} is set but OPENAI_BASE_URL and OPENAI_API_KEY are not: name the server that runs it`);
    if (config.aiFeatures !== 'all' && config.aiFeatures.size > 0)
      problems.push('AI_FEATURES names uses but OPENAI_BASE_URL and OPENAI_API_KEY are not set');
    return problems;
  }
  if (!named.embedding && !named.chat)
    problems.push('AI_EMBEDDING_MODEL or AI_CHAT_MODEL (or both) is required when OPENAI_BASE_URL is set');
  else if (config.aiFeatures !== 'all')
    for (const [kind, { env, uses }] of Object.entries(modelOf))
      for (const use of uses)
        if (config.aiFeatures.has(use) && !named[kind as keyof typeof named])
          problems.push(`AI_FEATURES names ${use}, which needs ${env}, and ${env} is not set`);
  return problems;
}

/** The settings in force, or null when no model is configured (then no request ever leaves the service). */
export function aiSettingsOf(config: AiConfig): AiSettings | null {
  if (!config.openaiBaseUrl || !config.openaiApiKey) return null;
  const uses = new Set<AiUse>(config.aiFeatures === 'all' ? AI_USES : config.aiFeatures);
  const modelIf = (name: string, kind: keyof typeof modelOf) =>
    name && modelOf[kind].uses.some((use) => uses.has(use)) ? name : null;
  const embeddingModel = modelIf(config.aiEmbeddingModel, 'embedding');
  const chatModel = modelIf(config.aiChatModel, 'chat');
  if (!embeddingModel && !chatModel) return null;
  for (const use of AI_USES)
    if (!(AI_EMBEDDING_USES as readonly AiUse[]).includes(use) ? !chatModel : !embeddingModel) uses.delete(use);
  return {
    baseUrl: config.openaiBaseUrl.replace(/\/+$/, ''),
    apiKey: config.openaiApiKey,
    embeddingModel,
    chatModel,
    uses,
    timeoutMs: config.aiTimeoutMs,
    monthlyTokens: config.aiMonthlyTokens,
    embeddingBatch: config.aiEmbeddingBatch,
    intervalMs: config.aiIntervalMs,
    itemsPerMinute: config.aiItemsPerMinute,
  };
}
