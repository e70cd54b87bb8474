import { badRequest, SecretBox, type Logger } from '@fi/shared';
import { createMailTransport } from '@fi/shared/mail';
import {
  alertEvent,
  emailChannel,
  identityRecipients,
  slackChannel,
  type AlertChannel,
  type AlertStore,
  type ExampleItems,
  type MailRecipients,
  type SlackUrls,
} from './alerts';
import type { FeedbackWorkerConfig } from './config';
import type { Announcement } from './core';
import { checkTarget, postJson, TargetRefused, type WebhookConfig } from './webhooks';

/**
 * Slack URLs under the webhooks' rules: the same target policy (https, public addresses; `npm start` and
 * tests allow http and loopback as they do for webhooks) and the same key sealing secrets at rest.
 */
export function slackUrls(config: WebhookConfig): SlackUrls {
  const box = new SecretBox(config.webhookSecretKey, 'WEBHOOK_SECRET_KEY');
  const policy = { allowHttp: config.webhookAllowHttp, privateTargets: config.webhookPrivateTargets };
  return {
    async check(raw) {
      try {
        return (await checkTarget(raw.trim(), policy)).toString();
      } catch (error) {
        if (error instanceof TargetRefused)
          throw badRequest(`slackUrl: ${error.message}`, { argument: 'input.slackUrl' });
        throw error;
      }
    },
    seal: (url, orgId) => box.seal(url, `alerts-slack:${orgId}`),
    open: (sealed, orgId) => box.open(sealed, `alerts-slack:${orgId}`),
  };
}

/** Webhooks: an alert's opening and closing are events of the change stream, delivered as any event. */
export function webhookChannel(announce: (event: Announcement) => Promise<void>): AlertChannel {
  return { name: 'webhook', send: (alert, type) => announce(alertEvent(alert, type)) };
}

/**
 * Every channel an alert goes out on: webhooks always; Slack for the organizations that set a URL; email
 * when the worker can ask the identity service who opted in (IDENTITY_URL) and has somewhere to send mail
 * (SMTP_URL, or MAIL_DIR in development).
 */
export function alertChannels(
  deps: { store: AlertStore; items: ExampleItems; announce: (event: Announcement) => Promise<void> },
  config: FeedbackWorkerConfig,
  logger: Logger,
): {
  channels: AlertChannel[];
  mail: { transport: ReturnType<typeof createMailTransport>; recipients: MailRecipients | null };
} {
  const policy = { allowHttp: config.webhookAllowHttp, privateTargets: config.webhookPrivateTargets };
  const post = async (url: string, payload: string) =>
    postJson(url, payload, {}, policy, config.webhookTimeoutMs, AbortSignal.timeout(config.webhookTimeoutMs * 2));
  const channels = [
    webhookChannel(deps.announce),
    slackChannel({ store: deps.store, urls: slackUrls(config), post, items: deps.items }, config.publicUrl),
  ];
  const transport = createMailTransport({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dir: config.mailDir || undefined,
  });
  const recipients = config.identityUrl ? identityRecipients(config.identityUrl) : null;
  if (transport && recipients)
    channels.push(emailChannel({ transport, recipients, items: deps.items }, config.publicUrl));
  else logger.info('alert and digest emails are off: they need IDENTITY_URL and SMTP_URL (or MAIL_DIR)');
  return { channels, mail: { transport, recipients } };
}
