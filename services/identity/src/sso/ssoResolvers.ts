import type { MutationResolvers, QueryResolvers } from '../generated/resolvers';
import { checkRole } from '../domain/memberService';
import { sessionCookie } from '../http';
import { memberActor } from '../identityContext';
import { ssoBindingCookie } from './bindingCookie';
import { connectionView, type SsoSettings } from './ssoSettings';
import type { SsoSignIn } from './ssoSignIn';

export interface SsoServices {
  settings: SsoSettings;
  signIn: SsoSignIn;
  cookieSecure: boolean;
}

type SsoQueries = Pick<QueryResolvers, 'ssoConnection' | 'ssoDomains'>;
type SsoMutations = Pick<
  MutationResolvers,
  | 'setOidcConnection'
  | 'removeSsoConnection'
  | 'addSsoDomain'
  | 'verifySsoDomain'
  | 'removeSsoDomain'
  | 'setSsoRequired'
  | 'startSsoSignIn'
  | 'finishOidcSignIn'
  | 'setSamlConnection'
  | 'finishSamlSignIn'
>;

/** Thin, as the service's other fields: the signed-in owner's organization, the rule that owns the change. */
export function createSsoResolvers({ settings, signIn, cookieSecure }: SsoServices): {
  Query: SsoQueries;
  Mutation: SsoMutations;
} {
  const owner = (ctx: Parameters<typeof memberActor>[0]) => {
    const actor = memberActor(ctx);
    return { actor, orgId: actor.member.orgId };
  };
  return {
    Query: {
      ssoConnection: async (_, __, ctx) => {
        const { actor, orgId } = owner(ctx);
        const connection = await settings.connection(actor, orgId);
        return connection ? connectionView(connection, signIn.addresses) : null;
      },
      ssoDomains: (_, __, ctx) => {
        const { actor, orgId } = owner(ctx);
        return settings.domains(actor, orgId);
      },
    },
    Mutation: {
      setOidcConnection: async (_, args, ctx) => {
        const { actor, orgId } = owner(ctx);
        const connection = await settings.setOidc(actor, orgId, {
          issuer: args.issuer,
          clientId: args.clientId,
          clientSecret: args.clientSecret ?? null,
          defaultRole: checkRole(args.defaultRole ?? 'member'),
        });
        return connectionView(connection, signIn.addresses);
      },
      setSamlConnection: async (_, args, ctx) => {
        const { actor, orgId } = owner(ctx);
        const connection = await settings.setSaml(actor, orgId, {
          metadataXml: args.metadataXml ?? null,
          metadataUrl: args.metadataUrl ?? null,
          defaultRole: checkRole(args.defaultRole ?? 'member'),
        });
        return connectionView(connection, signIn.addresses);
      },
      removeSsoConnection: (_, __, ctx) => {
        const { actor, orgId } = owner(ctx);
        return settings.remove(actor, orgId);
      },
      addSsoDomain: (_, args, ctx) => {
        const { actor, orgId } = owner(ctx);
        return settings.addDomain(actor, orgId, args.domain);
      },
      verifySsoDomain: (_, args, ctx) => {
        const { actor, orgId } = owner(ctx);
        return settings.verifyDomain(actor, orgId, args.domain);
      },
      removeSsoDomain: (_, args, ctx) => {
        const { actor, orgId } = owner(ctx);
        return settings.removeDomain(actor, orgId, args.domain);
      },
      setSsoRequired: (_, args, ctx) => {
        const { actor, orgId } = owner(ctx);
        return settings.setRequired(actor, orgId, args.domain, args.required);
      },
      startSsoSignIn: async (_, args, ctx) => {
        const { url, binding } = await signIn.start(args.email, ctx.address);
        ctx.setCookie = ssoBindingCookie(binding, cookieSecure);
        return { url };
      },
      finishOidcSignIn: async (_, args, ctx) => {
        const { token, session } = await signIn.finishOidc(
          args.callbackQuery,
          ctx.ssoBinding,
          ctx.address,
          ctx.sessionToken,
        );
        ctx.setCookie = sessionCookie(token, session.expiresAt, cookieSecure);
        return session;
      },
      finishSamlSignIn: async (_, args, ctx) => {
        const { token, session } = await signIn.finishSaml(args.ticket, ctx.ssoBinding, ctx.address, ctx.sessionToken);
        ctx.setCookie = sessionCookie(token, session.expiresAt, cookieSecure);
        return session;
      },
    },
  };
}
