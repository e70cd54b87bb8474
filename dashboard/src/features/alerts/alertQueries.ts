// The documents are in alerts.graphql; `npm run codegen` types them against the admin API.
import type { AlertFieldsFragment, AlertRulesFieldsFragment } from '../../generated/graphql';

export {
  AcknowledgeFeedbackAlertDocument as ACKNOWLEDGE_ALERT,
  FeedbackAlertRulesDocument as ALERT_RULES,
  FeedbackAlertsDocument as ALERTS,
  MyMailOptInsDocument as MY_MAIL_OPT_INS,
  SetFeedbackAlertRulesDocument as SET_ALERT_RULES,
  SetMailOptInsDocument as SET_MAIL_OPT_INS,
} from '../../generated/graphql';

export type FeedbackAlert = AlertFieldsFragment;
export type AlertRules = AlertRulesFieldsFragment;

/** The lists of the Alerts page, each at its own address (`?show=`). */
export const ALERT_LISTS = [
  { show: 'open', status: 'open', label: 'Open' },
  { show: 'acknowledged', status: 'acknowledged', label: 'Acknowledged' },
  { show: 'history', status: 'closed', label: 'History' },
] as const;

/** What an alert says, in words (the kinds as the feedback service names them). */
export function alertInWords(alert: FeedbackAlert): string {
  const day = alert.baseline >= 10 ? Math.round(alert.baseline) : alert.baseline.toFixed(1);
  switch (alert.kind) {
    case 'theme_spike':
      return `${alert.count} items today against ${day} a day before`;
    case 'new_theme':
      return `a new theme with ${alert.count} items today`;
    case 'negative_share':
      return `${alert.count} of ${alert.total} items negative today, against ${Math.round(alert.baseline * 100)}% before`;
    default:
      return `${alert.count} items`;
  }
}
