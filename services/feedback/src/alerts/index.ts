// Alerts: a detector in the worker compares each organization's day with its own 28-day baseline (per
// theme, new suggestions, the negative share), opens one alert per spike and closes it once it passed, and
// sends it by webhook, Slack and email; the API lists and acknowledges alerts and keeps the rules.
export { AlertStore, type SealedUrl } from './data/alertStore';
export type { Alert, AlertKind, AlertStatus, Signal } from './data/alertModel';
export { DEFAULT_RULES, type AlertRules } from './alertRules';
export { ALERT_EVENT_TYPES, alertEvent, publicAlert, type AlertEventType } from './alertEvents';
export { alertSources, type AlertSources } from './alertSources';
export {
  detectOrganization,
  startAlertDetector,
  type DetectorDeps,
  type PassResult,
  type SilentPlatforms,
} from './alertDetector';
export { alertDeliverer, type AlertChannel } from './alertDelivery';
export { type AlertRulesView, type SlackUrls } from './alertOperations';
export { createAlertAdminResolvers, createAlertResolvers, type ExampleItems } from './alertResolvers';
export { emailChannel, identityRecipients, slackChannel, type MailRecipients, type PostJson } from './alertNotifiers';
export { alertMail, slackMessage } from './alertMessages';
export { binomialUpperTail, poissonRateTest, shareTest } from './alertStatistics';
export { BASELINE_DAYS, decide, signalsOf, subjectKey } from './spikeDetection';
export { orgDay } from './orgDay';
export { digestMail, sendDigest, startDigestWorker, weeklyDigest, weekOf, type Digest } from './weeklyDigest';
export { integrationsActivity, platformSignals, type PlatformActivity } from './silentPlatforms';
