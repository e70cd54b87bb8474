import type { MailTransport } from '@fi/shared/mail';
import type { FeedbackItem } from '../core';
import type { AlertStore } from './data/alertStore';
import type { AlertChannel } from './alertDelivery';
import { alertMail, slackMessage } from './alertMessages';
import type { SlackUrls } from './alertOperations';
import type { ExampleItems } from './alertResolvers';

/** Who of an organization opted in to a mail (the identity service's members). */
export interface MailRecipients {
  of(orgId: string, list: 'alerts' | 'digest'): Promise<Array<{ email: string; name: string }>>;
}

/** A POST of a JSON body under the webhooks' target policy (see webhooks/sender.ts). */
export type PostJson = (url: string, payload: string) => Promise<{ ok: boolean; error: string | null }>;

const examplesOf = async (items: ExampleItems, orgId: string, ids: string[]): Promise<FeedbackItem[]> => {
  const found = new Map((await items.findAmong(orgId, ids.slice(0, 2))).map((item) => [item.id, item]));
  return ids
    .slice(0, 2)
    .map((id) => found.get(id))
    .filter((item): item is FeedbackItem => item !== undefined);
};

/** Slack: the organization's incoming webhook, when it set one; nothing otherwise. */
export function slackChannel(
  deps: { store: AlertStore; urls: SlackUrls; post: PostJson; items: ExampleItems },
  publicUrl: string,
): AlertChannel {
  return {
    name: 'slack',
    async send(alert, type) {
      const { slackUrl } = await deps.store.rules(alert.orgId);
      if (!slackUrl) return;
      const message = slackMessage(alert, type, await examplesOf(deps.items, alert.orgId, alert.exampleIds), publicUrl);
      const result = await deps.post(deps.urls.open(slackUrl, alert.orgId), JSON.stringify(message));
      if (!result.ok) throw new Error(`Slack answered: ${result.error}`);
    },
  };
}

/** Email: one mail to each member who opted in to alert emails. */
export function emailChannel(
  deps: { transport: MailTransport; recipients: MailRecipients; items: ExampleItems },
  publicUrl: string,
): AlertChannel {
  return {
    name: 'email',
    async send(alert, type) {
      const recipients = await deps.recipients.of(alert.orgId, 'alerts');
      if (recipients.length === 0) return;
      const mail = alertMail(alert, type, await examplesOf(deps.items, alert.orgId, alert.exampleIds), publicUrl);
      for (const { email } of recipients) await deps.transport.send({ to: email, ...mail });
    },
  };
}

/** The identity service's internal route of opted-in members (never its database). */
export function identityRecipients(identityUrl: string, timeoutMs = 5_000): MailRecipients {
  return {
    async of(orgId, list) {
      const response = await fetch(`${identityUrl.replace(/\/+$/, '')}/internal/mail-recipients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orgId, list }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 200) throw new Error(`the identity service answered ${response.status}`);
      const body = (await response.json()) as { recipients?: Array<{ email: string; name: string }> };
      if (!Array.isArray(body.recipients)) throw new Error('the identity service answered in an unknown form');
      return body.recipients;
    },
  };
}
