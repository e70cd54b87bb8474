import type { QueryResolvers, MutationResolvers } from '../generated/resolvers';
import { memberActor } from '../identityContext';
import type { ScimTokenService } from './scimTokens';

/** The admin API's SCIM token operations (Settings, SCIM tokens): the signed-in member's organization only. */
export function scimResolvers(tokens: ScimTokenService): {
  Query: Pick<QueryResolvers, 'scimTokens'>;
  Mutation: Pick<MutationResolvers, 'createScimToken' | 'revokeScimToken'>;
} {
  return {
    Query: { scimTokens: (_, __, ctx) => tokens.list(memberActor(ctx), '') },
    Mutation: {
      createScimToken: async (_, args, ctx) => {
        const { token, record } = await tokens.create(memberActor(ctx), '', args.name);
        return { token, scimToken: record };
      },
      revokeScimToken: (_, args, ctx) => tokens.revoke(memberActor(ctx), '', args.id),
    },
  };
}
