import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import {
  forbidden,
  notFound,
  requireOneOf,
  SENTIMENTS,
  STATUSES,
  toPage,
  type SubgraphContext,
} from '@fi/shared';
import type { AuthorStats, FeedbackRepository } from './data/feedbackRepository';
import type { ContactRef } from './contactStatsLoader';
import { addFeedback, parseIdempotencyKey } from './domain/addFeedback';
import type { NewFeedbackInput } from './domain/newFeedback';
import type { IdempotencyStore } from './data/idempotencyStore';
import type DataLoader from 'dataloader';

export interface FeedbackContext extends SubgraphContext {
  contactStats: DataLoader<ContactRef, AuthorStats, string>;
  /**
   * The Idempotency-Key header as the gateway forwarded it; only addFeedbackItem reads (and checks) it,
   * so a malformed header fails that mutation with BAD_REQUEST and never a query.
   */
  idempotencyKeyHeader: string | string[] | undefined;
}

interface ListArgs {
  apiKey: string;
  skip?: number | null;
  take?: number | null;
  source?: string | null;
  status?: string | null;
  sentiment?: string | null;
}

interface ContactRepresentation extends ContactRef {
  id: string;
  storedLastInteraction?: string | Date | null;
}

// The spec's messages for removeFeedbackItem, word for word.
export const FEEDBACK_NOT_FOUND = 'Feedback not found';
export const NOT_AUTHORIZED_TO_DELETE = 'Not authorized to delete this feedback';
export const NOT_AUTHORIZED_TO_CREATE = 'Not authorized to create feedback';

export function createResolvers(repository: FeedbackRepository, idempotency: IdempotencyStore): GraphQLResolverMap<FeedbackContext> {
  return {
    Query: {
      feedbackItems: async (_: unknown, args: ListArgs, ctx: FeedbackContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        const page = toPage(args);
        const filter = {
          source: args.source ?? undefined,
          status: requireOneOf('status', args.status, STATUSES),
          sentiment: requireOneOf('sentiment', args.sentiment, SENTIMENTS),
        };
        return repository.list(caller.orgId, filter, page);
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
    },
    FeedbackItem: {
      __resolveReference: async (ref: { id: string }, ctx: FeedbackContext) =>
        repository.findById([...(await ctx.allowedOrgs())], ref.id),
    },
    ContactItem: {
      __resolveReference: async (ref: ContactRepresentation, ctx: FeedbackContext) => {
        if (!(await ctx.allowedOrgs()).has(ref.orgId)) throw forbidden('Not authorized to read this contact');
        return ref;
      },
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
