import type { Logger } from '@fi/shared';
import type { AlertToSend, AlertStore } from './data/alertStore';
import type { Alert } from './data/alertModel';
import type { AlertRules } from './alertRules';
import type { AlertEventType } from './alertEvents';

/** Attempts of one channel's event (one a pass) before it is given up. */
export const MAX_ATTEMPTS = 5;

/** Alerts opened longer ago than this are not sent any more (a worker down for a week does not flood a channel). */
const SEND_WINDOW_MS = 7 * 86_400_000;

/** A way an alert reaches people: webhooks, Slack, email. */
export interface AlertChannel {
  name: string;
  /** Sends the event of the alert (throws when it could not; the next pass tries again). */
  send(alert: Alert, type: AlertEventType, rules: AlertRules): Promise<void>;
}

const EVENT_KEYS: Record<AlertEventType, string> = { 'alert.triggered': 'triggered', 'alert.resolved': 'resolved' };

/**
 * What a pass sends: for each recent alert, on each channel, its opening, then its closing once it closed,
 * each marked sent in the alert (so a restart or another instance does not send it again), a failure
 * retried by the next passes up to MAX_ATTEMPTS. The organization's claim keeps two instances from sending
 * the same alert at once.
 */
export function alertDeliverer(store: AlertStore, channels: AlertChannel[], logger: Logger) {
  const attempt = async (alert: AlertToSend, channel: AlertChannel, type: AlertEventType, rules: AlertRules) => {
    const key = `${channel.name}_${EVENT_KEYS[type]}`;
    if (alert.sent.includes(key)) return true;
    try {
      await channel.send(alert, type, rules);
      await store.markSent(alert.id, key);
      return true;
    } catch (error) {
      const attempts = (alert.attempts[key] ?? 0) + 1;
      logger.warn(
        { err: error, orgId: alert.orgId, alertId: alert.id, channel: channel.name, attempts },
        'feedback alert not sent',
      );
      if (attempts >= MAX_ATTEMPTS) await store.markSent(alert.id, key);
      else await store.markFailed(alert.id, key, attempts);
      return false;
    }
  };
  return async (orgId: string, rules: AlertRules, now: Date): Promise<void> => {
    for (const alert of await store.toSend(orgId, new Date(now.getTime() - SEND_WINDOW_MS))) {
      for (const channel of channels) {
        const opened = await attempt(alert, channel, 'alert.triggered', rules);
        if (opened && alert.closedAt) await attempt(alert, channel, 'alert.resolved', rules);
      }
    }
  };
}
