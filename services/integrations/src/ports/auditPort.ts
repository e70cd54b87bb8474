import type { AuditPort } from '../domain/auditTrail';

/** The identity service's POST /internal/audit, which records by its own rules (the member's email as actor). */
export function identityAudit(identityUrl: string, timeoutMs: number): AuditPort {
  return {
    async record(orgId, actor, action, target) {
      const response = await fetch(new URL('/internal/audit', identityUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orgId, memberId: actor.memberId, action, target }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`the identity service answered ${response.status}: ${await response.text()}`);
    },
  };
}
