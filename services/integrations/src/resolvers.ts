import type { Connections } from './domain/connections';
import type { Resolvers } from './generated/resolvers';

/** The public schema: any key of the organization reads its connections (never a secret). */
export function createResolvers(connections: Connections): Resolvers {
  return {
    Query: {
      integrations: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return connections.list(caller.orgId);
      },
    },
  };
}
