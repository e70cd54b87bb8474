import { parse, parseSecretKey, type ConfigField, type ConfigOf } from '@fi/shared';

/**
 * Webhook settings of the feedback service. The defaults are the production ones (https only, no
 * private targets); `npm start` turns both on for development, and tests shorten the retry delays.
 */
export const webhookConfigSchema = {
  webhookSecretKey: {
    env: 'WEBHOOK_SECRET_KEY',
    doc: 'key that encrypts webhook signing secrets at rest: 32 bytes as 64 hex digits or base64 (required; `npm start` sets a development key)',
    parse: parseSecretKey,
  },
  webhookAllowHttp: {
    env: 'WEBHOOK_ALLOW_HTTP',
    doc: 'accept http:// webhook URLs besides https:// (development only)',
    default: false,
    parse: parse.bool,
  },
  webhookPrivateTargets: {
    env: 'WEBHOOK_PRIVATE_TARGETS',
    doc: 'webhook URLs resolving to non-public addresses: refuse, loopback (allow 127.0.0.0/8 and ::1 only), or allow (any)',
    default: 'refuse' as 'refuse' | 'loopback' | 'allow',
    parse: parse.oneOf('refuse', 'loopback', 'allow'),
  },
  webhookTimeoutMs: {
    env: 'WEBHOOK_TIMEOUT_MS',
    doc: 'longest wait for a receiver to answer one delivery attempt',
    default: 10_000,
    parse: parse.int(100, 120_000),
  },
  webhookConcurrency: {
    env: 'WEBHOOK_CONCURRENCY',
    doc: 'delivery attempts in flight at once per feedback-service instance',
    default: 8,
    parse: parse.int(1, 256),
  },
  webhookPollIntervalMs: {
    env: 'WEBHOOK_POLL_INTERVAL_MS',
    doc: 'how often each instance looks for due deliveries and unpublished events (local writes wake it at once)',
    default: 2_000,
    parse: parse.int(50, 600_000),
  },
  webhookRetryBaseMs: {
    env: 'WEBHOOK_RETRY_BASE_MS',
    doc: 'delay before the first retry; each further retry doubles it (with jitter)',
    default: 5_000,
    parse: parse.int(1, 3_600_000),
  },
  webhookRetryMaxDelayMs: {
    env: 'WEBHOOK_RETRY_MAX_DELAY_MS',
    doc: 'longest delay between two attempts',
    default: 3_600_000,
    parse: parse.int(1, 86_400_000),
  },
  webhookRetryWindowMs: {
    env: 'WEBHOOK_RETRY_WINDOW_MS',
    doc: 'how long an event is retried after its first attempt before it is marked failed (and its endpoint disabled)',
    default: 86_400_000,
    parse: parse.int(1, 7 * 86_400_000),
  },
  webhookIntentGraceMs: {
    env: 'WEBHOOK_INTENT_GRACE_MS',
    doc: 'how long a recorded change may wait for its write: past it, an unwritten change is dropped and a written one its writer did not count is counted by the relay (far longer than any write)',
    default: 60_000,
    parse: parse.int(1_000, 3_600_000),
  },
  webhookSecretOverlapMs: {
    env: 'WEBHOOK_SECRET_OVERLAP_MS',
    doc: "after an endpoint's secret is rotated, how long deliveries are signed with the replaced secret as well as the new one, so its receiver can switch without losing an event",
    default: 86_400_000,
    parse: parse.int(1_000, 30 * 86_400_000),
  },
  webhookHistoryDays: {
    env: 'WEBHOOK_HISTORY_DAYS',
    doc: 'how long finished deliveries stay visible in webhookDeliveries',
    default: 7,
    parse: parse.int(1, 90),
  },
} satisfies Record<string, ConfigField<unknown>>;

export type WebhookConfig = ConfigOf<typeof webhookConfigSchema>;
