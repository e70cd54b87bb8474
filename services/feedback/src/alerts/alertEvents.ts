import type { ServiceEvent } from '../core';
import type { Alert } from './data/alertModel';

/** An alert opened, an alert closed: what endpoints may subscribe to. */
export const ALERT_EVENT_TYPES = ['alert.triggered', 'alert.resolved'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** An alert as receivers see it (never its organization). */
export function publicAlert(alert: Alert) {
  return {
    id: alert.id,
    kind: alert.kind,
    theme: alert.themeId ? { id: alert.themeId, label: alert.label } : null,
    label: alert.label,
    window: alert.window,
    openedAt: alert.openedAt.toISOString(),
    closedAt: alert.closedAt?.toISOString() ?? null,
    count: alert.count,
    total: alert.total,
    baseline: alert.baseline,
    p: alert.p,
    exampleIds: alert.exampleIds,
  };
}

/**
 * The event of an alert's opening or closing: one id per alert and event, so a repeat names the same event.
 * It occurs when it is announced (`at`): the change stream takes an announcement older than its grace
 * period for one that never happened, and a send retried by a later pass is older than the alert's times.
 */
export function alertEvent(
  alert: Alert,
  type: AlertEventType,
  at = new Date(),
): ServiceEvent<AlertEventType, { alert: ReturnType<typeof publicAlert> }> {
  return {
    id: `evt_${alert.id}_${type === 'alert.triggered' ? 'triggered' : 'resolved'}`,
    type,
    orgId: alert.orgId,
    itemId: alert.id,
    occurredAt: at,
    data: { alert: publicAlert(alert) },
  };
}
