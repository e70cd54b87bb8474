import { badRequest, SecretBox } from '@fi/shared';
import { alertEvent, type AlertChannel, type SlackUrls } from './alerts';
import type { Announcement } from './core';
import { checkTarget, TargetRefused, type WebhookConfig } from './webhooks';

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
