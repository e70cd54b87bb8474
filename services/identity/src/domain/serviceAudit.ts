import { badRequest } from '@fi/shared';
import type { AuditAction } from '../data/auditRepository';
import type { IdentityRepositories } from '../data/repositories';

/** What other services may record in the audit log: their own actions only, never identity's. */
export const SERVICE_AUDIT_ACTIONS = {
  integrations: [
    'integration.added',
    'integration.paused',
    'integration.resumed',
    'integration.secret_rotated',
    'integration.removed',
  ],
} as const satisfies Record<string, readonly AuditAction[]>;

const RECORDABLE = new Set<string>(Object.values(SERVICE_AUDIT_ACTIONS).flat());

export interface ServiceAuditEntry {
  orgId: string;
  /** The signed-in member who made the change (the id the gateway signed), or null for an operator's CLI. */
  memberId: string | null;
  action: string;
  target: string | null;
}

/**
 * Records a change another service made for a member (or an operator), through the audit log's rules: an
 * action of that service's, and a member of that organization, named by their email as every entry is.
 */
export async function recordServiceAudit(repositories: IdentityRepositories, entry: ServiceAuditEntry): Promise<void> {
  if (!RECORDABLE.has(entry.action))
    throw badRequest(`action must be one of ${[...RECORDABLE].join(', ')}`, { argument: 'action' });
  let actor = 'cli';
  if (entry.memberId !== null) {
    const member = await repositories.members.findById(entry.memberId);
    if (!member || member.orgId !== entry.orgId)
      throw badRequest('memberId is not a member of the organization', { argument: 'memberId' });
    actor = member.email;
  }
  await repositories.audit.record({
    orgId: entry.orgId,
    action: entry.action as AuditAction,
    actor,
    target: entry.target,
    address: null,
  });
}
