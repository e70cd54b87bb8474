// The documents are in settings.graphql; `npm run codegen` types them against the admin API.
import type { AuditLogQuery, AuditLogQueryVariables } from '../../generated/graphql';

export { AuditActionsDocument as AUDIT_ACTIONS, AuditLogDocument as AUDIT_LOG } from '../../generated/graphql';

export type AuditEntry = AuditLogQuery['auditLog']['items'][number];
export type AuditFilters = Required<Pick<AuditLogQueryVariables, 'action' | 'actor' | 'from' | 'to'>>;

/** `2026-01-31` (a day in the person's own zone) as the instant it starts; null for anything else. */
export function dayStart(day: string | null, plusDays = 0): string | null {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!match) return null;
  const start = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays);
  return Number.isNaN(start.getTime()) ? null : start.toISOString();
}
