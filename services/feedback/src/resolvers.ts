import { forbidden, type ChangeFeed } from '@fi/shared';
import { type ServiceExports } from '@fi/shared/database';
import {
  addFeedback,
  addFeedbackBatch,
  changeStatus,
  changeStatuses,
  FEEDBACK_NOT_FOUND,
  findFeedback,
  listFeedback,
  parseFeedbackListArgs,
  parseIdempotencyKey,
  parseSentiment,
  parseStatus,
  removeFeedback,
  setPersonSentiment,
  type ChangeEvents,
  type FeedbackItem,
  type FeedbackRepository,
  type FeedbackTombstones,
  type ExternalIdStore,
  type IdempotencyStore,
  type SearchAnswers,
} from './core';
import { createAlertResolvers, type AlertStore, type SlackUrls } from './alerts';
import type { FeedbackContext } from './feedbackContext';
import { feedbackItemFields } from './feedbackItemFields';
import type { Resolvers } from './generated/resolvers';
import { feedbackInsights, feedbackInsightsFields, type InsightsStore } from './insights';
import { createLinkResolvers } from './links';
import { createMergeResolvers } from './merges';
import type { OrgSimilarity } from './similarity';
import {
  createCuratedResolvers,
  createThemeResolvers,
  curatedThemeFields,
  themesInRange,
  type ThemeStore,
} from './themes';
import { createWebhookResolvers, type WebhookEndpoints } from './webhooks';

export type { FeedbackContext };
export { FEEDBACK_NOT_FOUND };

// The spec's messages for removeFeedbackItem, word for word.
export const NOT_AUTHORIZED_TO_DELETE = 'Not authorized to delete this feedback';
export const NOT_AUTHORIZED_TO_CREATE = 'Not authorized to create feedback';

/** What the API's resolvers are given: the core's repositories and change events, and the features' parts. */
export interface FeedbackParts {
  repository: FeedbackRepository;
  tombstones: FeedbackTombstones;
  idempotency: IdempotencyStore;
  externalIds: ExternalIdStore;
  events: ChangeEvents;
  search: SearchAnswers;
  insights: InsightsStore;
  similarity: OrgSimilarity;
  themes: ThemeStore;
  webhooks: WebhookEndpoints;
  exportJobs: ServiceExports['operations'];
  changes: ChangeFeed<FeedbackItem>;
  alerts: AlertStore;
  /** How the alert rules keep a Slack URL (checked and sealed as webhook URLs and secrets are). */
  slack: SlackUrls;
}

export function createResolvers(parts: FeedbackParts): Resolvers {
  const { repository: items, tombstones, idempotency, externalIds, events, themes, exportJobs, changes } = parts;
  const webhooks = createWebhookResolvers(parts.webhooks);
  const themed = createThemeResolvers(themes);
  const curated = createCuratedResolvers(themes);
  const merges = createMergeResolvers({ items, events, tombstones });
  const links = createLinkResolvers();
  const alerts = createAlertResolvers(parts.alerts, items);
  return {
    FeedbackAlert: alerts.FeedbackAlert,
    Query: {
      ...alerts.Query,
      ...webhooks.Query,
      ...themed.Query,
      ...curated.Query,
      feedbackItems: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return listFeedback({ items, search: parts.search }, caller.orgId, parseFeedbackListArgs(args));
      },
      feedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return findFeedback({ items, tombstones }, caller.orgId, args.id);
      },
      feedbackExportJob: (_, args, ctx) => exportJobs.get(ctx, args),
      feedbackExports: (_, args, ctx) => exportJobs.list(ctx, args),
      feedbackChanges: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return changes.read(caller.orgId, args);
      },
      feedbackInsights: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return feedbackInsights({ store: parts.insights, themes: themesInRange(themes) }, caller.orgId, args);
      },
    },
    Mutation: {
      ...alerts.Mutation,
      ...webhooks.Mutation,
      ...themed.Mutation,
      ...curated.Mutation,
      ...merges.Mutation,
      startFeedbackExport: (_, args, ctx) => exportJobs.start(ctx, args),
      addFeedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_CREATE);
        const idempotencyKey = parseIdempotencyKey(ctx.idempotencyKeyHeader);
        const item = await addFeedback(
          { items, idempotency, externalIds, events },
          caller.orgId,
          args.input,
          idempotencyKey,
        );
        ctx.logger.info({ feedbackId: item.id, orgId: caller.orgId }, 'feedback created');
        return item;
      },
      addFeedbackItems: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_CREATE);
        const outcomes = await addFeedbackBatch({ items, idempotency, externalIds, events }, caller.orgId, args.inputs);
        ctx.logger.info({ orgId: caller.orgId, inputs: outcomes.length }, 'feedback batch added');
        return outcomes.map((outcome) =>
          'item' in outcome ? { item: outcome.item, refused: null } : { item: null, refused: outcome.refused },
        );
      },
      removeFeedbackItem: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        // Spec, section 7: an unknown item is FORBIDDEN "Feedback not found", for a read-only key too
        // (existence is told first, so a read-only key learns no more than a writer would).
        if (caller.readOnly) {
          throw forbidden(
            (await items.findById(caller.orgId, args.id)) ? NOT_AUTHORIZED_TO_DELETE : FEEDBACK_NOT_FOUND,
          );
        }
        if (!(await removeFeedback({ items, events, tombstones }, caller.orgId, args.id)))
          throw forbidden(FEEDBACK_NOT_FOUND);
        ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId }, 'feedback removed');
        return true;
      },
      updateFeedbackItemStatus: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        const status = parseStatus(args.status);
        const change = await changeStatus({ items, events }, caller, args.id, status);
        if (change.changed)
          ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId, status }, 'feedback status changed');
        return change.item;
      },
      updateFeedbackItemSentiment: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        const sentiment = parseSentiment(args.sentiment);
        const item = await setPersonSentiment({ items, events }, caller, args.id, sentiment);
        ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId, sentiment }, 'feedback sentiment given');
        return item;
      },
      updateFeedbackItemsStatus: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        const status = parseStatus(args.status);
        const changed = await changeStatuses({ items, events }, caller, args.ids, status);
        ctx.logger.info(
          { orgId: caller.orgId, status, requested: args.ids.length, changed: changed.length },
          'feedback statuses changed',
        );
        return changed.length;
      },
    },
    FeedbackTheme: { ...themed.FeedbackTheme, ...curatedThemeFields.FeedbackTheme },
    FeedbackInsights: feedbackInsightsFields,
    FeedbackItem: {
      ...themed.FeedbackItem,
      ...curatedThemeFields.FeedbackItem,
      ...merges.FeedbackItem,
      __resolveReference: async (ref, ctx) => items.findById([...(await ctx.allowedOrgs())], ref.id),
      ...feedbackItemFields({ similarity: parts.similarity, items }),
    },
    ...links,
  };
}
