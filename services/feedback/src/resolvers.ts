import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { forbidden, notFound, scopedReference } from '@fi/shared';
import type { FeedbackItem, FeedbackRepository } from './data/feedbackRepository';
import type { FeedbackStatusStore } from './data/feedbackStatusStore';
import type { ContactRef } from './contactStatsLoader';
import { addFeedback, parseIdempotencyKey } from './domain/addFeedback';
import { changeStatus, changeStatuses, FEEDBACK_NOT_FOUND } from './domain/changeStatus';
import { parseFeedbackListArgs, type FeedbackListArgs } from './domain/feedbackListQuery';
import type { NewFeedbackInput } from './domain/newFeedback';
import type { IdempotencyStore } from './data/idempotencyStore';
import type { FeedbackContext } from './feedbackContext';
import { feedbackLinkResolvers } from './links/feedbackLinks';

export type { FeedbackContext };
export { FEEDBACK_NOT_FOUND };

interface ContactRepresentation extends ContactRef {
  id: string;
  storedLastInteraction?: string | Date | null;
}

// The spec's messages for removeFeedbackItem, word for word.
export const NOT_AUTHORIZED_TO_DELETE = 'Not authorized to delete this feedback';
export const NOT_AUTHORIZED_TO_CREATE = 'Not authorized to create feedback';

export function createResolvers(
  repository: FeedbackRepository,
  idempotency: IdempotencyStore,
  statuses: FeedbackStatusStore,
): GraphQLResolverMap<FeedbackContext> {
  const links = feedbackLinkResolvers();
  return {
    Query: {
      feedbackItems: async (_: unknown, args: FeedbackListArgs & { apiKey: string }, ctx: FeedbackContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        return repository.list(caller.orgId, parseFeedbackListArgs(args));
      },
      feedbackItem: async (_: unknown, args: { apiKey: string; id: string }, ctx: FeedbackContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        const item = await repository.findById(caller.orgId, args.id);
        if (!item) throw notFound(FEEDBACK_NOT_FOUND);
        return item;
      },
    },
    Mutation: {
      addFeedbackItem: async (_: unknown, args: { apiKey: string; input: NewFeedbackInput }, ctx: FeedbackContext) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_CREATE);
        const idempotencyKey = parseIdempotencyKey(ctx.idempotencyKeyHeader);
        const item = await addFeedback({ repository, idempotency }, caller.orgId, args.input, idempotencyKey);
        ctx.logger.info({ feedbackId: item.id, orgId: caller.orgId }, 'feedback created');
        return item;
      },
      removeFeedbackItem: async (_: unknown, args: { apiKey: string; id: string }, ctx: FeedbackContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        // Spec, section 7: an unknown item is FORBIDDEN "Feedback not found", for a read-only key too
        // (existence is told first, so a read-only key learns no more than a writer would).
        if (caller.readOnly) {
          throw forbidden((await repository.findById(caller.orgId, args.id)) ? NOT_AUTHORIZED_TO_DELETE : FEEDBACK_NOT_FOUND);
        }
        if (!(await repository.remove(caller.orgId, args.id))) throw forbidden(FEEDBACK_NOT_FOUND);
        ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId }, 'feedback removed');
        return true;
      },
      updateFeedbackItemStatus: async (_: unknown, args: { apiKey: string; id: string; status: string }, ctx: FeedbackContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        const change = await changeStatus(statuses, caller, args.id, args.status);
        if (change.changed) ctx.logger.info({ feedbackId: args.id, orgId: caller.orgId, status: args.status }, 'feedback status changed');
        return change.item;
      },
      updateFeedbackItemsStatus: async (_: unknown, args: { apiKey: string; ids: string[]; status: string }, ctx: FeedbackContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        const changes = await changeStatuses(statuses, caller, args.ids, args.status);
        ctx.logger.info({ orgId: caller.orgId, status: args.status, requested: args.ids.length, changed: changes.length }, 'feedback statuses changed');
        return changes.length;
      },
    },
    FeedbackItem: {
      __resolveReference: async (ref: { id: string }, ctx: FeedbackContext) =>
        repository.findById([...(await ctx.allowedOrgs())], ref.id),
      // Idempotent replays answer with the item as first stored, which may predate updatedAt.
      updatedAt: (item: FeedbackItem) => item.updatedAt ?? item.createdAt,
    },
    AccountItem: links.AccountItem,
    ContactItem: {
      ...links.ContactItem,
      __resolveReference: scopedReference<ContactRepresentation>('contact'),
      totalFeedbacks: async (contact: ContactRepresentation, _: unknown, ctx: FeedbackContext) =>
        (await ctx.contactStats.load(contact)).count,
      lastInteraction: async (contact: ContactRepresentation, _: unknown, ctx: FeedbackContext) => {
        const { lastPublished } = await ctx.contactStats.load(contact);
        const stored = contact.storedLastInteraction ? new Date(contact.storedLastInteraction) : null;
        if (!stored) return lastPublished;
        if (!lastPublished) return stored;
        return stored > lastPublished ? stored : lastPublished;
      },
    },
  };
}
