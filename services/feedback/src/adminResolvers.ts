import {
  DIRECTORY_WRITERS,
  INTEGRATION_MANAGERS,
  requireDirectoryWriter,
  requireMember,
  requireMemberRole,
  toPage,
  type SubgraphContext,
} from '@fi/shared';
import {
  changeStatus,
  changeStatuses,
  findFeedback,
  listFeedback,
  mergeFeedback,
  parseFeedbackListArgs,
  parseSentiment,
  parseStatus,
  setPersonSentiment,
  unmergeFeedback,
  type StatusCaller,
} from './core';
import { feedbackItemFields } from './feedbackItemFields';
import { createAlertAdminResolvers } from './alerts';
import type { Resolvers } from './generated/adminResolvers';
import { feedbackInsights, feedbackInsightsFields } from './insights';
import { duplicateFields } from './merges';
import type { FeedbackParts } from './resolvers';
import {
  createCuratedAdminResolvers,
  createThemeResolvers,
  curatedThemeFields,
  listThemes,
  mergeThemes,
  themeFigureFields,
  themesInRange,
  unmergeThemes,
} from './themes';
import { toGraphQL, webhookChanges } from './webhooks';

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
  parts: Pick<
    FeedbackParts,
    | 'repository'
    | 'tombstones'
    | 'events'
    | 'search'
    | 'insights'
    | 'similarity'
    | 'themes'
    | 'webhooks'
    | 'exportJobs'
    | 'alerts'
    | 'slack'
  >,
): Resolvers {
  const { repository: items, tombstones, events, themes, webhooks } = parts;
  const webhookManager = (ctx: SubgraphContext, refusal = ONLY_MANAGERS_CHANGE_WEBHOOKS) =>
    requireMemberRole(ctx.auth, INTEGRATION_MANAGERS, refusal);
  // A test event or a redelivery sends nothing the endpoint was not meant to get: every writer may.
  const webhookSender = (ctx: SubgraphContext) =>
    requireMemberRole(ctx.auth, DIRECTORY_WRITERS, ONLY_WRITERS_RESEND_WEBHOOKS);
  const changes = webhookChanges(webhooks);
  const themed = createThemeResolvers(themes);
  const curated = createCuratedAdminResolvers(
    themes,
    (ctx) => requireMember(ctx.auth).orgId,
    (ctx) => statusCaller(ctx).orgId,
  );
  const merging = { items, events, tombstones };
  const alerts = createAlertAdminResolvers(parts.alerts, items, parts.slack);
  return {
    Query: {
      ...alerts.Query,
      feedbackItems: (_, args, ctx) =>
        listFeedback({ items, search: parts.search }, requireMember(ctx.auth).orgId, parseFeedbackListArgs(args)),
      feedbackItem: (_, args, ctx) => findFeedback({ items, tombstones }, requireMember(ctx.auth).orgId, args.id),
      feedbackInsights: (_, args, ctx) =>
        feedbackInsights({ store: parts.insights, themes: themesInRange(themes) }, requireMember(ctx.auth).orgId, args),
      feedbackThemes: (_, args, ctx) => listThemes(themes, requireMember(ctx.auth).orgId, args),
      ...curated.Query,
      webhookEndpoints: async (_, __, ctx) => (await webhooks.list(requireMember(ctx.auth).orgId)).map(toGraphQL),
      webhookDeliveries: (_, args, ctx) =>
        webhooks.deliveriesOf(requireMember(ctx.auth).orgId, args.endpointId, toPage(args)),
    },
    Mutation: {
      ...alerts.Mutation,
      ...curated.Mutation,
      changeFeedbackStatus: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const change = await changeStatus({ items, events }, caller, args.id, parseStatus(args.status));
        if (change.changed)
          ctx.logger.info(
            { feedbackId: args.id, orgId: caller.orgId, status: args.status },
            'feedback status changed by a member',
          );
        return change.item;
      },
      changeFeedbackStatuses: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const changed = await changeStatuses({ items, events }, caller, args.ids, parseStatus(args.status));
        ctx.logger.info(
          { orgId: caller.orgId, status: args.status, requested: args.ids.length, changed: changed.length },
          'feedback statuses changed by a member',
        );
        return changed.length;
      },
      changeFeedbackSentiment: async (_, args, ctx) => {
        const caller = statusCaller(ctx);
        const sentiment = parseSentiment(args.sentiment);
        const item = await setPersonSentiment({ items, events }, caller, args.id, sentiment);
        ctx.logger.info(
          { feedbackId: args.id, orgId: caller.orgId, sentiment },
          'feedback sentiment given by a member',
        );
        return item;
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
      deleteFeedbackExport: (_, args, ctx) => parts.exportJobs.remove(ctx, args),
    },
    FeedbackItem: {
      ...feedbackItemFields({ similarity: parts.similarity, items }),
      themes: themed.FeedbackItem.themes,
      ...curatedThemeFields.FeedbackItem,
      ...duplicateFields({ items }),
    },
    FeedbackTheme: { ...themeFigureFields, ...curatedThemeFields.FeedbackTheme },
    FeedbackInsights: feedbackInsightsFields,
    FeedbackAlert: alerts.FeedbackAlert,
    FeedbackAlertRules: alerts.FeedbackAlertRules,
  };
}
