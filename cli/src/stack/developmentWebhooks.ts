/**
 * `npm start` is for development: webhooks may go to http:// and to local addresses, so a newcomer can
 * try them against a receiver on the same machine, and their secrets are sealed with a fixed key the
 * CLI knows too. Every variable can still be set in the environment; production sets its own.
 */
export const DEVELOPMENT_WEBHOOK_SECRET_KEY = 'de7e1057de7e1057de7e1057de7e1057de7e1057de7e1057de7e1057de7e1057';

/** The same for connected platforms' secrets and tokens (INTEGRATIONS_SECRET_KEY), which the CLI seals too. */
export const DEVELOPMENT_INTEGRATIONS_SECRET_KEY = 'de7e1057a11ede7e1057a11ede7e1057a11ede7e1057a11ede7e1057a11ede70';

export function developmentWebhookEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    WEBHOOK_SECRET_KEY: env.WEBHOOK_SECRET_KEY || DEVELOPMENT_WEBHOOK_SECRET_KEY,
    WEBHOOK_ALLOW_HTTP: env.WEBHOOK_ALLOW_HTTP || 'true',
    WEBHOOK_PRIVATE_TARGETS: env.WEBHOOK_PRIVATE_TARGETS || 'allow',
  };
}

export function developmentIntegrationsEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { INTEGRATIONS_SECRET_KEY: env.INTEGRATIONS_SECRET_KEY || DEVELOPMENT_INTEGRATIONS_SECRET_KEY };
}
