import { forbidden, notFound, scopedReference, type ChangeFeed } from '@fi/shared';
import type { ServiceExports } from '@fi/shared/database';
import type { FeedbackItem } from './data/feedbackItem';
import type { FeedbackTombstones } from './data/feedbackTombstones';
import type { FeedbackRepository } from './data/feedbackRepository';
import type { FeedbackStatusStore } from './data/feedbackStatusStore';
import { addFeedback, parseIdempotencyKey } from './domain/addFeedback';
import { changeStatus, changeStatuses, FEEDBACK_NOT_FOUND } from './domain/changeStatus';
import { parseFeedbackListArgs } from './domain/feedbackListQuery';
import { lastInteraction } from './domain/lastInteraction';
import type { IdempotencyStore } from './data/idempotencyStore';
import { removeFeedback } from './domain/removeFeedback';
import type { ChangeEvents } from './domain/changeEvents';
import type { FeedbackContext } from './feedbackContext';
import { feedbackItemFields } from './feedbackItemFields';
import type { Resolvers } from './generated/resolvers';
import type { InsightsStore } from './data/insightsStore';
import { feedbackInsights, feedbackInsightsFields } from './insights/feedbackInsights';
import type { OrgSimilarity } from './similarity/orgSimilarity';
import { createThemeResolvers } from './themes/themeResolvers';
import { createMergeResolvers } from './merges/mergeResolvers';
import type { ThemeStore } from './data/themeStore';
import { createWebhookResolvers } from './webhooks/webhookResolvers';
import type { WebhookEndpoints } from './webhooks/webhookEndpoints';

export type { FeedbackContext };
export { FEEDBACK_NOT_FOUND };

// The spec's messages for removeFeedbackItem, word for word.
export const NOT_AUTHORIZED_TO_DELETE = 'Not authorized to delete this feedback';
export const NOT_AUTHORIZED_TO_CREATE = 'Not authorized to create feedback';

export function createResolvers(
  repository: FeedbackRepository,
  idempotency: IdempotencyStore,
  statuses: FeedbackStatusStore,
  {
    events,
    management,
    insights,
    similarity,
    themes,
    exportJobs,
    tombstones,
    changes,
  }: {
    events: ChangeEvents;
    management: WebhookEndpoints;
    insights: InsightsStore;
    similarity: OrgSimilarity;
    themes: ThemeStore;
    exportJobs: ServiceExports['operations'];
    tombstones: FeedbackTombstones;
    changes: ChangeFeed<FeedbackItem>;
  },
): Resolvers {
  const webhooks = createWebhookResolvers(management);
  const themed = createThemeResolvers(themes);
  const merges = createMergeResolvers({ repository, events, tombstones });
  return {
    Query: {
      ...webhooks.Query,
      ...themed.Query,
      feedbackItems: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return repository.list(caller.orgId, parseFeedbackListArgs(args));
      },
      feedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        // A merged duplicate is still there to read (with duplicateOf), until it is deleted.
        const item =
          (await repository.findById(caller.orgId, args.id)) ?? (await tombstones.findMerged(caller.orgId, args.id));
        if (!item) throw notFound(FEEDBACK_NOT_FOUND);
        return item;
      },
      feedbackExportJob: (_, args, ctx) => exportJobs.get(ctx, args),
      feedbackExports: (_, args, ctx) => exportJobs.list(ctx, args),
      feedbackChanges: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return changes.read(caller.orgId, args);
      },
      feedbackInsights: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return feedbackInsights({ store: insights, themes }, caller.orgId, args);
      },
    },
    Mutation: {
      ...webhooks.Mutation,
      ...themed.Mutation,
      ...merges.Mutation,
      startFeedbackExport: (_, args, ctx) => exportJobs.start(ctx, args),
      addFeedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_CREATE);
        const idempotencyKey = parseIdempotencyKey(ctx.idempotencyKeyHeader);
        const item = await addFeedback({ repository, idempotency, events }, caller.orgId, args.input, idempotencyKey);
        ctx.logger.info({ feedbackId: item.id, orgId: caller.orgId }, 'feedback created');
        return item;
      },
      removeFeedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        // Spec, section 7: an unknown item is FORBIDDEN "Feedback not found", for a read-only key too
        // (existence is told first, so a read-only key learns no more than a writer would).
        if (caller.readOnly) {
          throw forbidden(
            (await repository.findById(caller.orgId, args.id)) ? NOT_AUTHORIZED_TO_DELETE : FEEDBACK_NOT_FOUND,
          );
        }
        if (!(await removeFeedback({ repository, events, tombstones }, caller.orgId, args.id)))
          throw forbidden(FEEDBACK_NOT_FOUND);
        ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId }, 'feedback removed');
        return true;
      },
      updateFeedbackItemStatus: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        const change = await changeStatus({ statuses, events }, caller, args.id, args.status);
        if (change.changed)
          ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId, status: args.status }, 'feedback status changed');
        return change.item;
      },
      updateFeedbackItemsStatus: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        const changes = await changeStatuses({ statuses, events }, caller, args.ids, args.status);
        ctx.logger.info(
          { orgId: caller.orgId, status: args.status, requested: args.ids.length, changed: changes.length },
          'feedback statuses changed',
        );
        return changes.length;
      },
    },
    FeedbackTheme: themed.FeedbackTheme,
    FeedbackInsights: feedbackInsightsFields,
    FeedbackItem: {
      ...themed.FeedbackItem,
      ...merges.FeedbackItem,
      __resolveReference: async (ref, ctx) => repository.findById([...(await ctx.allowedOrgs())], ref.id),
      ...feedbackItemFields({ similarity, repository }),
    },
    AccountItem: {
      __resolveReference: (ref, ctx) => scopedReference('account', ref, ctx),
      feedbackSummary: (account, _, ctx) => ctx.links.accountSummaries.load(account),
    },
    ContactItem: {
      __resolveReference: (ref, ctx) => scopedReference('contact', ref, ctx),
      totalFeedbacks: async (contact, _, ctx) => (await ctx.contactStats.load(contact)).count,
      feedback: (contact, args, ctx) =>
        ctx.links.contactFeedback.load({
          orgId: contact.orgId,
          email: contact.email,
          args: parseFeedbackListArgs(args),
        }),
      lastInteraction: async (contact, _, ctx) =>
        lastInteraction(contact.storedLastInteraction, (await ctx.contactStats.load(contact)).lastPublished),
    },
  };
}
