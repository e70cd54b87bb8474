import { notFound, requireDirectoryWriter, requireMember, type SubgraphContext } from '@fi/shared';
import type { FeedbackRepository } from './data/feedbackRepository';
import type { InsightsStore } from './data/insightsStore';
import type { ThemeStore } from './data/themeStore';
import { changeStatus, changeStatuses, FEEDBACK_NOT_FOUND, type StatusCaller, type StatusDeps } from './domain/changeStatus';
import { parseFeedbackListArgs } from './domain/feedbackListQuery';
import { feedbackItemFields } from './feedbackItemFields';
import type { Resolvers } from './generated/adminResolvers';
import { feedbackInsights } from './insights/feedbackInsights';
import type { OrgSimilarity } from './similarity/orgSimilarity';
import { listThemes } from './themes/feedbackThemes';
import { createThemeResolvers, themeFigureFields } from './themes/themeResolvers';

/**
 * Who may change feedback in the web application: owners, admins and members (the people who triage the
 * inbox), as for contacts and accounts; viewers read. Their organization is the signed identity's.
 */
function statusCaller(ctx: SubgraphContext): StatusCaller {
  return { orgId: requireDirectoryWriter(ctx.auth, 'feedback').orgId, readOnly: false };
}

/**
 * The admin schema (admin.graphql): the web application's signed-in members read the inbox, an item, the
 * insights and themes, and change statuses, through the same domain functions as the public API.
 */
export function createFeedbackAdminResolvers(
  repository: FeedbackRepository,
  status: StatusDeps,
  { insights, similarity, themes }: { insights: InsightsStore; similarity: OrgSimilarity; themes: ThemeStore },
): Resolvers {
  const themed = createThemeResolvers(themes);
  return {
    Query: {
      feedbackItems: (_, args, ctx) => repository.list(requireMember(ctx.auth).orgId, parseFeedbackListArgs(args)),
      feedbackItem: async (_, args, ctx) => {
        const item = await repository.findById(requireMember(ctx.auth).orgId, args.id);
        if (!item) throw notFound(FEEDBACK_NOT_FOUND);
        return item;
      },
      feedbackInsights: (_, args, ctx) => feedbackInsights({ store: insights, themes }, requireMember(ctx.auth).orgId, args),
      feedbackThemes: (_, args, ctx) => listThemes(themes, requireMember(ctx.auth).orgId, args),
    },
    Mutation: {
      changeFeedbackStatus: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const change = await changeStatus(status, caller, args.id, args.status);
        if (change.changed) ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId, status: args.status }, 'feedback status changed by a member');
        return change.item;
      },
      changeFeedbackStatuses: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const changes = await changeStatuses(status, caller, args.ids, args.status);
        ctx.logger.info({ orgId: caller.orgId, status: args.status, requested: args.ids.length, changed: changes.length }, 'feedback statuses changed by a member');
        return changes.length;
      },
    },
    FeedbackItem: {
      ...feedbackItemFields({ similarity, repository }),
      themes: themed.FeedbackItem.themes,
    },
    FeedbackTheme: themeFigureFields,
  };
}
