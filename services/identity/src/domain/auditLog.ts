import { badRequest } from '@fi/shared';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type AuditFilter } from '../data/auditRepository';
import type { IdentityRepositories } from '../data/repositories';
import type { Actor } from './actor';
import { requireAdmin } from './roles';

const MAX_TAKE = 200;
/** Longer than any email address (RFC 5321: 254), so a real actor always fits. */
const MAX_ACTOR_LENGTH = 320;

export interface AuditLogArgs {
  skip: number;
  take: number;
  action?: string | null;
  actor?: string | null;
  from?: Date | null;
  to?: Date | null;
}

const isAction = (action: string): action is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(action);

/** The filters as the repository takes them, each checked, with an error naming the argument. */
function auditFilter({ action, actor, from, to }: AuditLogArgs): AuditFilter {
  const filter: AuditFilter = {};
  if (action) {
    if (!isAction(action))
      throw badRequest(
        `action must be one of ${AUDIT_ACTIONS.join(', ')} (got ${JSON.stringify(action.slice(0, 100))})`,
        { argument: 'action' },
      );
    filter.action = action;
  }
  if (actor) {
    if (actor.length > MAX_ACTOR_LENGTH)
      throw badRequest(`actor must be at most ${MAX_ACTOR_LENGTH} characters`, { argument: 'actor' });
    // Actors are recorded in lower case (emails are normalized), so the filter is case-insensitive and still exact.
    const normalized = actor.trim().toLowerCase();
    if (normalized) filter.actor = normalized;
  }
  if (from) filter.from = from;
  if (to) filter.to = to;
  if (from && to && from >= to) throw badRequest('from must be before to', { argument: 'from' });
  return filter;
}

/** The organization's audit log, newest first, narrowed by the filters given, for its owners and admins. */
export function readAuditLog(
  repositories: IdentityRepositories,
  actor: Actor & { kind: 'member' },
  args: AuditLogArgs,
): Promise<{ total: number; items: AuditEntry[] }> {
  requireAdmin(actor.member.role, 'read the audit log');
  const { skip, take } = args;
  if (!Number.isInteger(skip) || skip < 0) throw badRequest('skip must be 0 or more', { argument: 'skip' });
  if (!Number.isInteger(take) || take < 1 || take > MAX_TAKE)
    throw badRequest(`take must be from 1 to ${MAX_TAKE}`, { argument: 'take' });
  return repositories.audit.page(actor.member.orgId, auditFilter(args), skip, take);
}

/** What the audit log records, for the action filter. */
export function auditActions(actor: Actor & { kind: 'member' }): readonly string[] {
  requireAdmin(actor.member.role, 'read the audit log');
  return AUDIT_ACTIONS;
}
