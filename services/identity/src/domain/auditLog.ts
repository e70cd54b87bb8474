import { badRequest } from '@fi/shared';
import type { AuditEntry } from '../data/auditRepository';
import type { IdentityRepositories } from '../data/repositories';
import type { Actor } from './actor';
import { requireAdmin } from './roles';

const MAX_TAKE = 200;

/** The organization's audit log, newest first, for its owners and admins. */
export function readAuditLog(
  repositories: IdentityRepositories,
  actor: Actor & { kind: 'member' },
  skip: number,
  take: number,
): Promise<{ total: number; items: AuditEntry[] }> {
  requireAdmin(actor.member.role, 'read the audit log');
  if (!Number.isInteger(skip) || skip < 0) throw badRequest('skip must be 0 or more');
  if (!Number.isInteger(take) || take < 1 || take > MAX_TAKE) throw badRequest(`take must be from 1 to ${MAX_TAKE}`);
  return repositories.audit.page(actor.member.orgId, skip, take);
}
