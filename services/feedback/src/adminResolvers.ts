import {
  DIRECTORY_WRITERS,
  INTEGRATION_MANAGERS,
  notFound,
  requireDirectoryWriter,
  requireMember,
  requireMemberRole,
  toPage,
  type SubgraphContext,
} from '@fi/shared';
import type { FeedbackRepository } from './data/feedbackRepository';
import type { FeedbackTombstones } from './data/feedbackTombstones';
import { mergeFeedback, unmergeFeedback } from './domain/mergeFeedback';
import { createMergeResolvers } from './merges/mergeResolvers';
import type { InsightsStore } from './data/insightsStore';
import type { ThemeStore } from './data/themeStore';
import {
  changeStatus,
  changeStatuses,
  FEEDBACK_NOT_FOUND,
  type StatusCaller,
  type StatusDeps,
} from './domain/changeStatus';
import { parseFeedbackListArgs } from './domain/feedbackListQuery';
import { feedbackItemFields } from './feedbackItemFields';
import type { Resolvers } from './generated/adminResolvers';
import { feedbackInsights, feedbackInsightsFields } from './insights/feedbackInsights';
import type { OrgSimilarity } from './similarity/orgSimilarity';
import { listThemes, mergeThemes, unmergeThemes } from './themes/feedbackThemes';
import { createThemeResolvers, themeFigureFields } from './themes/themeResolvers';
import type { WebhookEndpoints } from './webhooks/webhookEndpoints';
import { toGraphQL, webhookChanges } from './webhooks/webhookResolvers';

export const ONLY_MANAGERS_CHANGE_WEBHOOKS = 'Only owners and admins can add or remove webhook endpoints';
export const ONLY_MANAGERS_KEEP_WEBHOOKS =
  'Only owners and admins can re-enable webhook endpoints or rotate their secrets';
export const ONLY_WRITERS_RESEND_WEBHOOKS =
  'Only owners, admins and members can send test events or redeliver webhook deliveries';

/**
 * Who may change feedback in the web application: owners, admins and members (the people who triage the
 * inbox), as for contacts and accounts; viewers read. Their organization is the signed identity's.
 */
function statusCaller(ctx: SubgraphContext): StatusCaller {
  return { orgId: requireDirectoryWriter(ctx.auth, 'feedback').orgId, readOnly: false };
}

/**
 * The admin schema (admin.graphql): the web application's signed-in members read the inbox, an item, the
 * insights and themes, change statuses, merge items and themes, and keep webhook endpoints, through the same
 * functions as the public API.
 */
export function createFeedbackAdminResolvers(
  repository: FeedbackRepository,
  status: StatusDeps,
  {
    insights,
    similarity,
    themes,
    webhooks,
    tombstones,
  }: {
    insights: InsightsStore;
    similarity: OrgSimilarity;
    themes: ThemeStore;
    webhooks: WebhookEndpoints;
    tombstones: FeedbackTombstones;
  },
): Resolvers {
  const webhookManager = (ctx: SubgraphContext, refusal = ONLY_MANAGERS_CHANGE_WEBHOOKS) =>
    requireMemberRole(ctx.auth, INTEGRATION_MANAGERS, refusal);
  // A test event or a redelivery sends nothing the endpoint was not meant to get: every writer may.
  const webhookSender = (ctx: SubgraphContext) =>
    requireMemberRole(ctx.auth, DIRECTORY_WRITERS, ONLY_WRITERS_RESEND_WEBHOOKS);
  const changes = webhookChanges(webhooks);
  const themed = createThemeResolvers(themes);
  const merging = { repository, events: status.events, tombstones };
  const merges = createMergeResolvers(merging);
  return {
    Query: {
      feedbackItems: (_, args, ctx) => repository.list(requireMember(ctx.auth).orgId, parseFeedbackListArgs(args)),
      feedbackItem: async (_, args, ctx) => {
        const { orgId } = requireMember(ctx.auth);
        // A merged duplicate is still there to read (with duplicateOf), as in the public API.
        const item = (await repository.findById(orgId, args.id)) ?? (await tombstones.findMerged(orgId, args.id));
        if (!item) throw notFound(FEEDBACK_NOT_FOUND);
        return item;
      },
      feedbackInsights: (_, args, ctx) =>
        feedbackInsights({ store: insights, themes }, requireMember(ctx.auth).orgId, args),
      feedbackThemes: (_, args, ctx) => listThemes(themes, requireMember(ctx.auth).orgId, args),
      webhookEndpoints: async (_, __, ctx) => (await webhooks.list(requireMember(ctx.auth).orgId)).map(toGraphQL),
      webhookDeliveries: (_, args, ctx) =>
        webhooks.deliveriesOf(requireMember(ctx.auth).orgId, args.endpointId, toPage(args)),
    },
    Mutation: {
      changeFeedbackStatus: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const change = await changeStatus(status, caller, args.id, args.status);
        if (change.changed)
          ctx.logger.info(
            { feedbackId: args.id, orgId: caller.orgId, status: args.status },
            'feedback status changed by a member',
          );
        return change.item;
      },
      changeFeedbackStatuses: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const changes = await changeStatuses(status, caller, args.ids, args.status);
        ctx.logger.info(
          { orgId: caller.orgId, status: args.status, requested: args.ids.length, changed: changes.length },
          'feedback statuses changed by a member',
        );
        return changes.length;
      },
      addWebhookEndpoint: (_, args, ctx) =>
        changes.add(webhookManager(ctx).orgId, args.url, args.events, ctx.logger, 'member'),
      mergeFeedbackItems: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const item = await mergeFeedback(merging, caller.orgId, args.id, args.duplicateIds);
        ctx.logger.info(
          { feedbackId: args.id, orgId: caller.orgId, duplicates: args.duplicateIds.length },
          'feedback merged by a member',
        );
        return item;
      },
      unmergeFeedbackItem: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const item = await unmergeFeedback(merging, caller.orgId, args.id);
        ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId }, 'feedback unmerged by a member');
        return item;
      },
      mergeFeedbackThemes: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const theme = await mergeThemes(themes, caller.orgId, args.id, args.themeIds);
        ctx.logger.info(
          { themeId: args.id, orgId: caller.orgId, merged: args.themeIds.length },
          'feedback themes merged by a member',
        );
        return theme;
      },
      unmergeFeedbackThemes: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const theme = await unmergeThemes(themes, caller.orgId, args.id);
        ctx.logger.info({ themeId: args.id, orgId: caller.orgId }, 'feedback themes unmerged by a member');
        return theme;
      },
      removeWebhookEndpoint: (_, args, ctx) => changes.remove(webhookManager(ctx).orgId, args.id, ctx.logger, 'member'),
      sendWebhookTestEvent: (_, args, ctx) => changes.sendTest(webhookSender(ctx).orgId, args.endpointId),
      redeliverWebhookDelivery: (_, args, ctx) =>
        changes.redeliver(webhookSender(ctx).orgId, args.id, ctx.logger, 'member'),
      enableWebhookEndpoint: (_, args, ctx) =>
        changes.enable(webhookManager(ctx, ONLY_MANAGERS_KEEP_WEBHOOKS).orgId, args.id, ctx.logger, 'member'),
      rotateWebhookSecret: (_, args, ctx) =>
        changes.rotateSecret(webhookManager(ctx, ONLY_MANAGERS_KEEP_WEBHOOKS).orgId, args.id, ctx.logger, 'member'),
    },
    FeedbackItem: {
      ...feedbackItemFields({ similarity, repository }),
      themes: themed.FeedbackItem.themes,
      duplicateOf: merges.FeedbackItem.duplicateOf,
      duplicates: merges.FeedbackItem.duplicates,
    },
    FeedbackTheme: themeFigureFields,
    FeedbackInsights: feedbackInsightsFields,
  };
}
