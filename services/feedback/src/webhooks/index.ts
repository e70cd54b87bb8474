// The webhooks feature: endpoints and their rules, a listener of the change stream that queues what
// endpoints subscribe to, and the dispatcher (worker process) that sends it.
export { webhookConfigSchema, type WebhookConfig } from './webhookConfig';
export { webhookEndpoints, webhookListener, startWebhookDispatcher } from './webhooks';
export { createWebhookResolvers, toGraphQL, webhookChanges } from './webhookResolvers';
export type { WebhookEndpoints } from './webhookEndpoints';
export { postJson, type SendResult } from './sender';
export { checkTarget, TargetRefused, type TargetPolicy } from './targetPolicy';
