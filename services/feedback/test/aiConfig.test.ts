import { ConfigError } from '@fi/shared';
import { loadFeedbackConfig } from '../src/config';
import { aiSettingsOf } from '../src/ai';

const base = {
  MONGODB_URI: 'mongodb://127.0.0.1:1/x',
  WEBHOOK_SECRET_KEY: 'a'.repeat(64),
  IDENTITY_SIGNING_KEYS: `k:${'s'.repeat(40)}`,
};
const problemsOf = (env: Record<string, string>) => {
  try {
    loadFeedbackConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};
const settingsOf = (env: Record<string, string>) => aiSettingsOf(loadFeedbackConfig({ ...base, ...env }));
const server = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/', OPENAI_API_KEY: 'ollama' };

describe('the model configuration', () => {
  test('when nothing names a model server, then the service starts without a model', () => {
    expect(problemsOf({})).toEqual([]);
    expect(settingsOf({})).toBeNull();
    expect(settingsOf({ AI_FEATURES: 'none' })).toBeNull();
  });

  test('when half of it is given, then the start stops with a line naming each missing variable', () => {
    expect(problemsOf({ OPENAI_BASE_URL: server.OPENAI_BASE_URL, AI_EMBEDDING_MODEL: 'e' })).toEqual([
      expect.stringMatching(/^OPENAI_API_KEY is required when OPENAI_BASE_URL is set/),
    ]);
    expect(problemsOf({ OPENAI_API_KEY: 'k', AI_CHAT_MODEL: 'c' })).toEqual([
      expect.stringMatching(/^OPENAI_BASE_URL is required when OPENAI_API_KEY is set/),
    ]);
    expect(problemsOf(server)).toEqual([expect.stringMatching(/^AI_EMBEDDING_MODEL or AI_CHAT_MODEL/)]);
    expect(problemsOf({ AI_CHAT_MODEL: 'c' })).toEqual([
      expect.stringMatching(/^AI_CHAT_MODEL is set but OPENAI_BASE_URL and OPENAI_API_KEY are not/),
    ]);
    expect(problemsOf({ ...server, AI_EMBEDDING_MODEL: 'e', AI_FEATURES: 'similar,sentiment' })).toEqual([
      'AI_FEATURES names sentiment, which needs AI_CHAT_MODEL, and AI_CHAT_MODEL is not set',
    ]);
    expect(problemsOf({ ...server, AI_CHAT_MODEL: 'c', AI_FEATURES: 'sentiment,clusters' })).toEqual([
      expect.stringMatching(/^AI_FEATURES="sentiment,clusters" is invalid: unknown use clusters/),
    ]);
    expect(problemsOf({ OPENAI_BASE_URL: 'localhost:11434', OPENAI_API_KEY: 'k', AI_CHAT_MODEL: 'c' })).toEqual([
      expect.stringMatching(/^OPENAI_BASE_URL="localhost:11434" is invalid: expected a http: or https: URL/),
    ]);
  });

  test('when both models are named, then every use is on, and AI_FEATURES turns them off one by one', () => {
    const both = { ...server, AI_EMBEDDING_MODEL: 'nomic-embed-text', AI_CHAT_MODEL: 'llama3.2' };
    expect(settingsOf(both)).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'ollama',
      embeddingModel: 'nomic-embed-text',
      chatModel: 'llama3.2',
      uses: new Set(['similar', 'themes', 'assignment', 'sentiment', 'theme-names']),
      timeoutMs: 20_000,
    });
    expect(settingsOf({ ...both, AI_FEATURES: 'similar, sentiment' })).toMatchObject({
      embeddingModel: 'nomic-embed-text',
      chatModel: 'llama3.2',
      uses: new Set(['similar', 'sentiment']),
    });
    // A model none of whose uses is on is not called at all.
    expect(settingsOf({ ...both, AI_FEATURES: 'themes,assignment' })).toMatchObject({ chatModel: null });
    expect(settingsOf({ ...both, AI_FEATURES: 'none' })).toBeNull();
  });

  test('when only a chat model is named, then the embedding uses are off', () => {
    expect(settingsOf({ ...server, AI_CHAT_MODEL: 'llama3.2' })).toMatchObject({
      embeddingModel: null,
      uses: new Set(['sentiment', 'theme-names']),
    });
  });
});
