import { gql } from '@urql/core';

export interface AuditEntry {
  id: string;
  action: string;
  actor: string;
  target: string | null;
  address: string | null;
  at: string;
}

export interface AuditFilters {
  action: string | null;
  actor: string | null;
  from: string | null;
  to: string | null;
}

export const AUDIT_LOG = gql<
  { auditLog: { total: number; items: AuditEntry[] } },
  AuditFilters & { skip: number; take: number }
>`
  query AuditLog($action: String, $actor: String, $from: DateTime, $to: DateTime, $skip: Int, $take: Int) {
    auditLog(action: $action, actor: $actor, from: $from, to: $to, skip: $skip, take: $take) {
      total
      items {
        id
        action
        actor
        target
        address
        at
      }
    }
  }
`;

export const AUDIT_ACTIONS = gql<{ auditActions: string[] }>`
  query AuditActions {
    auditActions
  }
`;

/** `2026-01-31` (a day in the person's own zone) as the instant it starts; null for anything else. */
export function dayStart(day: string | null, plusDays = 0): string | null {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!match) return null;
  const start = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays);
  return Number.isNaN(start.getTime()) ? null : start.toISOString();
}
