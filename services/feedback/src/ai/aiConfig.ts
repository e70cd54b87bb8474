import { parse, type ConfigField, type ConfigOf } from '@fi/shared';

/** The uses of a model, each turned off by leaving it out of AI_FEATURES. */
export const AI_EMBEDDING_USES = ['similar', 'themes', 'assignment'] as const;
export const AI_CHAT_USES = ['sentiment', 'theme-names'] as const;
export const AI_USES = [...AI_EMBEDDING_USES, ...AI_CHAT_USES] as const;
export type AiUse = (typeof AI_USES)[number];

/** `all`, `none`, or a comma-separated list of uses. */
function parseUses(raw: string): ReadonlySet<AiUse> | 'all' {
  const value = raw.trim().toLowerCase();
  if (value === 'all') return 'all';
  if (value === 'none') return new Set();
  const uses = value
    .split(',')
    .map((use) => use.trim())
    .filter(Boolean);
  const unknown = uses.filter((use) => !(AI_USES as readonly string[]).includes(use));
  if (unknown.length > 0)
    throw new Error(`unknown use ${unknown.join(', ')}; expected all, none or some of ${AI_USES.join(', ')}`);
  return new Set(uses as AiUse[]);
}

/**
 * The optional language model (see docs/ai.md). Nothing leaves the machine unless OPENAI_BASE_URL and
 * OPENAI_API_KEY are both set; `aiSettingsOf` refuses half a configuration.
 */
export const aiConfigSchema = {
  openaiBaseUrl: {
    env: 'OPENAI_BASE_URL',
    doc: 'base URL of a server speaking the OpenAI wire format (POST {base}/embeddings, {base}/chat/completions), e.g. http://localhost:11434/v1 for Ollama; unset: no model, nothing leaves the machine',
    default: '',
    parse: parse.url('http:', 'https:'),
  },
  openaiApiKey: {
    env: 'OPENAI_API_KEY',
    doc: 'API key sent as a bearer token to OPENAI_BASE_URL (any non-empty value for servers that ignore it, such as Ollama)',
    default: '',
    parse: parse.string,
  },
  aiEmbeddingModel: {
    env: 'AI_EMBEDDING_MODEL',
    doc: 'embedding model (e.g. nomic-embed-text, text-embedding-3-small): its vectors serve similar, automatic themes and the assignment to curated themes',
    default: '',
    parse: parse.string,
  },
  aiChatModel: {
    env: 'AI_CHAT_MODEL',
    doc: 'chat model (e.g. llama3.2, gpt-4o-mini): it reads the sentiment of items and names automatic themes',
    default: '',
    parse: parse.string,
  },
  aiFeatures: {
    env: 'AI_FEATURES',
    doc: `the uses of the configured models: all, none, or a comma-separated list of ${AI_USES.join(', ')}`,
    default: 'all' as ReadonlySet<AiUse> | 'all',
    parse: parseUses,
  },
  aiTimeoutMs: {
    env: 'AI_TIMEOUT_MS',
    doc: 'longest wait for the model server to answer one request',
    default: 20_000,
    parse: parse.int(100, 600_000),
  },
  aiMonthlyTokens: {
    env: 'AI_MONTHLY_TOKENS',
    doc: "tokens (as the server's usage counts them) one organization may spend per calendar month (UTC); past it the local methods answer until the next month (0: no limit)",
    default: 5_000_000,
    parse: parse.int(0, 1_000_000_000_000),
  },
  aiEmbeddingBatch: {
    env: 'AI_EMBEDDING_BATCH',
    doc: 'texts sent in one embeddings request',
    default: 64,
    parse: parse.int(1, 2_048),
  },
  aiIntervalMs: {
    env: 'AI_INTERVAL_MS',
    doc: 'how often each instance sends new items (and those a failure left) to the model (0: never, for instances that only answer requests)',
    default: 5_000,
    parse: parse.int(0, 3_600_000),
  },
  aiItemsPerMinute: {
    env: 'AI_ITEMS_PER_MINUTE',
    doc: 'items per organization and minute each instance sends to the model at most: bounds the re-embedding of every item when AI_EMBEDDING_MODEL changes, and the load on the server',
    default: 6_000,
    parse: parse.int(1, 1_000_000),
  },
} satisfies Record<string, ConfigField<unknown>>;

export type AiConfig = ConfigOf<typeof aiConfigSchema>;
