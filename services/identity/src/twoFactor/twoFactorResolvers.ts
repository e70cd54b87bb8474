import type { MutationResolvers, QueryResolvers } from '../generated/resolvers';
import type { SessionService } from '../domain/sessionService';
import type { IdentityRepositories } from '../data/repositories';
import type { Member } from '../data/memberRepository';
import type { Organization } from '../data/organizationRepository';
import { sessionCookie } from '../http';
import { memberActor, type IdentityContext } from '../identityContext';
import type { TwoFactorService } from './twoFactorService';

type Fields = {
  Query: Pick<QueryResolvers, 'twoFactor'>;
  Mutation: Pick<
    MutationResolvers,
    | 'startTwoFactorSetup'
    | 'confirmTwoFactorSetup'
    | 'disableTwoFactor'
    | 'requireTwoFactor'
    | 'verifyTwoFactor'
    | 'startTwoFactorEnrollment'
    | 'finishTwoFactorEnrollment'
  >;
};

/** The admin API's two-factor operations: a member's setup in Settings, the owner's requirement, the sign-in's second step. */
export function twoFactorResolvers(deps: {
  twoFactor: TwoFactorService;
  sessions: SessionService;
  repositories: IdentityRepositories;
  cookieSecure: boolean;
}): Fields {
  const { twoFactor, sessions, repositories, cookieSecure } = deps;

  /** The second step passed: the session opens, as a password sign-in's would. */
  const open = async (ctx: IdentityContext, member: Member, organization: Organization) => {
    const { token, session } = await sessions.start(member, organization, 'passed');
    await repositories.audit.record({
      orgId: organization.id,
      action: 'session.signed_in',
      actor: member.email,
      target: 'two-factor',
      address: ctx.address,
    });
    ctx.setCookie = sessionCookie(token, session.expiresAt, cookieSecure);
    return session;
  };

  return {
    Query: { twoFactor: (_, __, ctx) => twoFactor.status(memberActor(ctx)) },
    Mutation: {
      startTwoFactorSetup: (_, __, ctx) => twoFactor.startSetup(memberActor(ctx).member),
      confirmTwoFactorSetup: async (_, args, ctx) => ({
        recoveryCodes: await twoFactor.confirmSetup(memberActor(ctx).member, args.code, ctx.address),
      }),
      disableTwoFactor: async (_, args, ctx) => {
        await twoFactor.disable(memberActor(ctx), args.code);
        return true;
      },
      requireTwoFactor: (_, args, ctx) => twoFactor.setRequired(memberActor(ctx), args.required),
      verifyTwoFactor: async (_, args, ctx) => {
        const { member, organization } = await twoFactor.verify(args.challenge, args.code, ctx.address);
        return open(ctx, member, organization);
      },
      startTwoFactorEnrollment: (_, args) => twoFactor.startEnrollment(args.challenge),
      finishTwoFactorEnrollment: async (_, args, ctx) => {
        const { member, organization, recoveryCodes } = await twoFactor.finishEnrollment(
          args.challenge,
          args.code,
          ctx.address,
        );
        return { session: await open(ctx, member, organization), recoveryCodes };
      },
    },
  };
}
