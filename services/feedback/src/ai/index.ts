// The model feature's face (see docs/ai.md): its configuration, its client, and the port through which
// the other features read item vectors.
export { aiConfigSchema, AI_USES, type AiConfig, type AiUse } from './aiConfig';
export { aiConfigProblems, aiSettingsOf, type AiSettings } from './aiSettings';
export { ModelClient, type ChatMessage, type JsonReply, type ModelClientOptions } from './modelClient';
export { ModelUnavailable, type ModelFailureReason } from './modelFailure';
export { createAiMetrics, type AiMetrics } from './aiMetrics';
export { unlimitedTokens, type TokenBudget } from './tokenBudget';
export { cosine, noItemVectors, type ItemVectors } from './itemVectors';
export { noModelThemes, type ModelThemes } from './modelThemes';
export { MAX_MODEL_LABEL, type ThemeName, type ThemeNamer } from './themeNames';
export { similarVectors, startModelFeature } from './modelFeature';
export { AiStore } from './data/aiStore';
export { modelText } from './modelWork';
export { monthlyTokens } from './monthlyTokens';
