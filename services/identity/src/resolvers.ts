import type { ApiKeyRecord } from './data/apiKeyRepository';
import type { IdentityRepositories } from './data/repositories';
import type { AccountLinkService } from './domain/accountLinks';
import { auditActions, readAuditLog } from './domain/auditLog';
import type { KeyService } from './domain/keyService';
import type { MemberService } from './domain/memberService';
import { checkRole } from './domain/memberService';
import type { SessionService } from './domain/sessionService';
import type { Resolvers } from './generated/resolvers';
import { clearedSessionCookie, sessionCookie } from './http';
import { memberActor } from './identityContext';
import { createSsoResolvers, type SsoServices } from './sso';

export interface CreatedKey {
  key: string;
  apiKey: ApiKeyRecord;
}

export interface IdentityServices {
  repositories: IdentityRepositories;
  links: AccountLinkService;
  keys: KeyService;
  members: MemberService;
  sessions: SessionService;
  cookieSecure: boolean;
  sso: SsoServices;
}

/** Thin: each field names the actor and calls the rule that owns the change. */
export function createIdentityResolvers(services: IdentityServices): Resolvers {
  const { keys, members, sessions, links, repositories, cookieSecure } = services;
  const sso = createSsoResolvers(services.sso);
  return {
    Query: {
      ...sso.Query,
      me: (_, __, ctx) => ctx.session,
      members: (_, __, ctx) => members.list(memberActor(ctx)),
      apiKeys: (_, __, ctx) => keys.list(memberActor(ctx), ''),
      auditLog: (_, args, ctx) =>
        readAuditLog(repositories, memberActor(ctx), { ...args, skip: args.skip ?? 0, take: args.take ?? 50 }),
      auditActions: (_, __, ctx) => [...auditActions(memberActor(ctx))],
      invitations: (_, __, ctx) => links.invitations(memberActor(ctx)),
    },
    Mutation: {
      ...sso.Mutation,
      signIn: async (_, args, ctx) => {
        const { token, session } = await sessions.signIn(args.email, args.password, ctx.address, ctx.sessionToken);
        ctx.setCookie = sessionCookie(token, session.expiresAt, cookieSecure);
        return session;
      },
      signOut: async (_, __, ctx) => {
        if (ctx.session) await sessions.signOut(ctx.session, ctx.address);
        ctx.setCookie = clearedSessionCookie(cookieSecure);
        return true;
      },
      createApiKey: async (_, args, ctx) => {
        const { key, record } = await keys.create(memberActor(ctx), '', {
          name: args.name,
          readOnly: args.readOnly ?? false,
          rateLimitPerMinute: args.rateLimitPerMinute ?? null,
        });
        return { key, apiKey: record };
      },
      revokeApiKey: (_, args, ctx) => keys.revoke(memberActor(ctx), args.id),
      changeRole: (_, args, ctx) => members.changeRole(memberActor(ctx), args.memberId, checkRole(args.role)),
      removeMember: async (_, args, ctx) => {
        await members.remove(memberActor(ctx), args.memberId);
        return true;
      },
      inviteMember: (_, args, ctx) => links.invite(memberActor(ctx), args.email, checkRole(args.role)),
      cancelInvitation: async (_, args, ctx) => {
        await links.cancelInvitation(memberActor(ctx), args.id);
        return true;
      },
      acceptInvitation: async (_, args, ctx) => {
        const { token, session } = await links.acceptInvitation(
          args.token,
          { name: args.name, password: args.password },
          ctx.address,
        );
        ctx.setCookie = sessionCookie(token, session.expiresAt, cookieSecure);
        return session;
      },
      requestPasswordReset: async (_, args, ctx) => {
        await links.requestPasswordReset(args.email, ctx.address, (error) =>
          ctx.logger.error({ err: error }, 'password reset link not sent'),
        );
        return true;
      },
      resetPassword: async (_, args, ctx) => {
        await links.resetPassword(args.token, args.password, ctx.address);
        return true;
      },
      setMailOptIns: (_, args, ctx) => members.setMailOptIns(memberActor(ctx), args),
    },
    Member: {
      alertEmails: (member) => member.alertEmails === true,
      digestEmails: (member) => member.digestEmails === true,
    },
  };
}
