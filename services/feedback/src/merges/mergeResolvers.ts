import { mergeFeedback, unmergeFeedback, type MergeDeps } from '../core';
import type { Resolvers } from '../generated/resolvers';
import { mergedInto } from './duplicateLoader';

export const NOT_AUTHORIZED_TO_MERGE = 'Not authorized to merge feedback';

/** An item's duplicateOf and duplicates, the same in the public and the admin schema. */
export function duplicateFields(deps: Pick<MergeDeps, 'items'>) {
  return {
    duplicateOf: async (item) => {
      const into = mergedInto(item);
      return into ? deps.items.findById(item.orgId, into) : null;
    },
    duplicates: (item, _, ctx) => (mergedInto(item) ? [] : ctx.duplicates.load({ orgId: item.orgId, id: item.id })),
  } satisfies Pick<NonNullable<Resolvers['FeedbackItem']>, 'duplicateOf' | 'duplicates'>;
}

/** mergeFeedbackItems, unmergeFeedbackItem, and an item's duplicateOf and duplicates. */
export function createMergeResolvers(deps: MergeDeps) {
  return {
    Mutation: {
      mergeFeedbackItems: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MERGE);
        const item = await mergeFeedback(deps, caller.orgId, args.id, args.duplicateIds);
        ctx.logger.info(
          { feedbackId: args.id, orgId: caller.orgId, duplicates: args.duplicateIds.length },
          'feedback merged',
        );
        return item;
      },
      unmergeFeedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MERGE);
        const item = await unmergeFeedback(deps, caller.orgId, args.id);
        ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId }, 'feedback unmerged');
        return item;
      },
    },
    FeedbackItem: duplicateFields(deps),
  } satisfies Pick<Resolvers, 'Mutation' | 'FeedbackItem'>;
}
