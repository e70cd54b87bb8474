import type { Logger } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { Registry } from 'prom-client';
import { setModelSentiment, type SentimentDeps } from '../core';
import type { AiConfig } from './aiConfig';
import { createAiMetrics } from './aiMetrics';
import { aiSettingsOf } from './aiSettings';
import { AiStore } from './data/aiStore';
import { noItemVectors, type ItemVectors } from './itemVectors';
import { noModelThemes, type ModelThemes } from './modelThemes';
import { chatThemeNamer } from './themeNames';
import { ModelClient } from './modelClient';
import { startModelWork } from './modelWork';
import { monthlyTokens } from './monthlyTokens';
import { storedItemVectors } from './storedItemVectors';
import { unlimitedTokens } from './tokenBudget';

/**
 * The vectors `similar` compares in an API process: the stored ones of the embedding model when one is
 * configured and the use `similar` is on, else none (the local method answers). No request leaves from here.
 */
export function similarVectors(connection: Connection, config: AiConfig): ItemVectors {
  const settings = aiSettingsOf(config);
  if (!settings?.embeddingModel || !settings.uses.has('similar')) return noItemVectors;
  return storedItemVectors(new AiStore(connection), settings.embeddingModel, null);
}

/**
 * The background work of the model (ai/modelWork.ts), when one is configured: nothing starts, and no
 * request ever leaves, without OPENAI_BASE_URL and OPENAI_API_KEY. Returns the vectors with a client,
 * and what the theme computation may ask of the models (each use as AI_FEATURES allows).
 */
export async function startModelFeature(
  connection: Connection,
  config: AiConfig,
  registry: Registry,
  sentiment: SentimentDeps,
  logger: Logger,
): Promise<{ vectors: ItemVectors; themes: ModelThemes; close: () => Promise<void> }> {
  const settings = aiSettingsOf(config);
  if (!settings) return { vectors: noItemVectors, themes: noModelThemes, close: () => Promise.resolve() };
  const store = new AiStore(connection);
  await store.ensureIndexes();
  const client = new ModelClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
    embeddingBatch: settings.embeddingBatch,
    budget: settings.monthlyTokens > 0 ? monthlyTokens(store, settings.monthlyTokens) : unlimitedTokens,
    metrics: createAiMetrics(registry),
  });
  const work = startModelWork(
    store,
    client,
    settings,
    (orgId, itemId, value) => setModelSentiment(sentiment, orgId, itemId, value),
    logger,
  );
  const vectors = settings.embeddingModel ? storedItemVectors(store, settings.embeddingModel, client) : noItemVectors;
  const themes: ModelThemes = {
    assignment: settings.embeddingModel && settings.uses.has('assignment') ? vectors : null,
    clustering: settings.embeddingModel && settings.uses.has('themes') ? vectors : null,
    names: settings.chatModel && settings.uses.has('theme-names') ? chatThemeNamer(client, settings.chatModel) : null,
  };
  return { vectors, themes, close: async () => work?.close() };
}
