import { INTEGRATION_MANAGERS, requireMemberRole, type SubgraphContext } from '@fi/shared';
import type { Connections } from './domain/connections';
import type { Resolvers } from './generated/adminResolvers';
import { KINDS } from './model/connection';

export const MANAGERS_ONLY = 'Only owners and admins can manage integrations';

const manager = (ctx: SubgraphContext) => requireMemberRole(ctx.auth, INTEGRATION_MANAGERS, MANAGERS_ONLY);

/** The admin schema (admin.graphql): owners and admins manage the organization's connections. */
export function createIntegrationAdminResolvers(connections: Connections): Resolvers {
  /** The member, and the actor their changes are recorded under in the audit log. */
  const acting = (ctx: SubgraphContext) => {
    const member = manager(ctx);
    return { orgId: member.orgId, actor: { memberId: member.ref } };
  };
  return {
    Query: {
      integrations: (_, __, ctx) => connections.list(manager(ctx).orgId),
      integrationEvents: (_, args, ctx) => connections.recentEvents(manager(ctx).orgId, args.id, args.take ?? 20),
      integrationKinds: (_, __, ctx) => {
        manager(ctx);
        return [...KINDS];
      },
    },
    Mutation: {
      addIntegration: (_, args, ctx) => {
        const { orgId, actor } = acting(ctx);
        return connections.add(orgId, actor, args.input);
      },
      pauseIntegration: (_, args, ctx) => {
        const { orgId, actor } = acting(ctx);
        return connections.pause(orgId, actor, args.id);
      },
      resumeIntegration: (_, args, ctx) => {
        const { orgId, actor } = acting(ctx);
        return connections.resume(orgId, actor, args.id);
      },
      rotateIntegrationSecret: (_, args, ctx) => {
        const { orgId, actor } = acting(ctx);
        return connections.rotateSecret(orgId, actor, args.id, args.secret);
      },
      removeIntegration: (_, args, ctx) => {
        const { orgId, actor } = acting(ctx);
        return connections.remove(orgId, actor, args.id);
      },
    },
  };
}
