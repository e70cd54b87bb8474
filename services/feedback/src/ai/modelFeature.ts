import type { Logger } from '@fi/shared';
import type { Connection } from '@fi/shared/database';
import type { Registry } from 'prom-client';
import { setModelSentiment, type SentimentDeps } from '../core';
import type { AiConfig } from './aiConfig';
import { createAiMetrics } from './aiMetrics';
import { aiSettingsOf, type AiSettings } from './aiSettings';
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

const clientOf = (settings: AiSettings, store: AiStore, registry: Registry) =>
  new ModelClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs,
    embeddingBatch: settings.embeddingBatch,
    budget: settings.monthlyTokens > 0 ? monthlyTokens(store, settings.monthlyTokens) : unlimitedTokens,
    metrics: createAiMetrics(registry),
  });

/** The uses of the models the theme computation may make, as AI_FEATURES allows. */
const themesOf = (settings: AiSettings, vectors: ItemVectors, client: ModelClient): ModelThemes => ({
  assignment: settings.embeddingModel && settings.uses.has('assignment') ? vectors : null,
  clustering: settings.embeddingModel && settings.uses.has('themes') ? vectors : null,
  names: settings.chatModel && settings.uses.has('theme-names') ? chatThemeNamer(client, settings.chatModel) : null,
});

const vectorsOf = (settings: AiSettings, store: AiStore, client: ModelClient) =>
  settings.embeddingModel ? storedItemVectors(store, settings.embeddingModel, client) : noItemVectors;

/**
 * What the theme computation may ask of the configured models, for a process that computes themes without
 * the model's background work (`npm run bench`); nothing without OPENAI_BASE_URL and OPENAI_API_KEY.
 */
export function modelThemesOf(connection: Connection, config: AiConfig, registry: Registry): ModelThemes {
  const settings = aiSettingsOf(config);
  if (!settings) return noModelThemes;
  const store = new AiStore(connection);
  const client = clientOf(settings, store, registry);
  return themesOf(settings, vectorsOf(settings, store, client), client);
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
  const client = clientOf(settings, store, registry);
  const work = startModelWork(
    store,
    client,
    settings,
    (orgId, itemId, value) => setModelSentiment(sentiment, orgId, itemId, value),
    logger,
  );
  const vectors = vectorsOf(settings, store, client);
  return { vectors, themes: themesOf(settings, vectors, client), close: async () => work?.close() };
}
