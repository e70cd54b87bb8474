import { badRequest, notFound } from '@fi/shared';
import type { AlertStore, SealedUrl } from './data/alertStore';
import { ALERT_STATUSES, type Alert, type AlertStatus } from './data/alertModel';
import { changeRules, type AlertRules } from './alertRules';

export const MAX_ALERTS_TAKE = 100;
export const ALERT_NOT_FOUND = 'Alert not found';

/**
 * What keeps a Slack incoming-webhook URL: checked as webhook URLs are (https, public addresses only), and
 * sealed at rest under the webhook secret key (it is a credential).
 */
export interface SlackUrls {
  /** The URL normalized, or a BAD_REQUEST naming what is wrong with it. */
  check(raw: string): Promise<string>;
  seal(url: string, orgId: string): SealedUrl;
  open(sealed: SealedUrl, orgId: string): string;
}

/** The rules as the admin API shows them: the Slack URL only as a hint. */
export interface AlertRulesView extends AlertRules {
  orgId: string;
  slackUrlHint: string | null;
}

/** `https://hooks.slack.com/services/T0…/…` : the host and the path's first characters, enough to recognise it. */
export const urlHint = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.slice(0, 12)}…`;
};

export function listAlerts(store: AlertStore, orgId: string, args: { status?: string | null; take?: number | null }) {
  const take = args.take ?? 20;
  if (!Number.isInteger(take) || take < 0 || take > MAX_ALERTS_TAKE)
    throw badRequest(`take must be between 0 and ${MAX_ALERTS_TAKE} (got ${take})`, { argument: 'take' });
  const status = args.status ?? undefined;
  if (status !== undefined && !(ALERT_STATUSES as readonly string[]).includes(status))
    throw badRequest(`status must be one of ${ALERT_STATUSES.join(', ')} (got ${JSON.stringify(status)})`, {
      argument: 'status',
      allowed: ALERT_STATUSES,
    });
  return store.list(orgId, status as AlertStatus | undefined, take);
}

export async function acknowledgeAlert(store: AlertStore, orgId: string, id: string, now = new Date()): Promise<Alert> {
  const alert = await store.acknowledge(orgId, id, now);
  if (!alert) throw notFound(ALERT_NOT_FOUND);
  return alert;
}

export async function readRules(store: AlertStore, slack: SlackUrls, orgId: string): Promise<AlertRulesView> {
  const { rules, slackUrl } = await store.rules(orgId);
  return { ...rules, orgId, slackUrlHint: slackUrl ? urlHint(slack.open(slackUrl, orgId)) : null };
}

/** Changes the rules (see changeRules); a Slack URL is checked and sealed, an empty one removes it. */
export async function setRules(
  store: AlertStore,
  slack: SlackUrls,
  orgId: string,
  input: Parameters<typeof changeRules>[1] & { slackUrl?: string | null },
  now = new Date(),
): Promise<AlertRulesView> {
  const { rules: kept } = await store.rules(orgId);
  const { slackUrl, ...changes } = input;
  const rules = changeRules(kept, changes);
  const sealed =
    slackUrl === undefined ? undefined : !slackUrl?.trim() ? null : slack.seal(await slack.check(slackUrl), orgId);
  await store.saveRules(orgId, rules, sealed, now);
  return readRules(store, slack, orgId);
}
