import { scopedReference } from '@fi/shared';
import { parseFeedbackListArgs } from '../core';
import type { Resolvers } from '../generated/resolvers';
import { lastInteraction } from './lastInteraction';

/** What this service adds to the contacts' and accounts' entities (public schema only). */
export function createLinkResolvers(): Pick<Resolvers, 'AccountItem' | 'ContactItem'> {
  return {
    AccountItem: {
      __resolveReference: (ref, ctx) => scopedReference('account', ref, ctx),
      feedbackSummary: (account, _, ctx) => ctx.links.accountSummaries.load(account),
    },
    ContactItem: {
      __resolveReference: (ref, ctx) => scopedReference('contact', ref, ctx),
      totalFeedbacks: async (contact, _, ctx) => (await ctx.links.contactStats.load(contact)).count,
      feedback: (contact, args, ctx) =>
        ctx.links.contactFeedback.load({
          orgId: contact.orgId,
          email: contact.email,
          args: parseFeedbackListArgs(args),
        }),
      lastInteraction: async (contact, _, ctx) =>
        lastInteraction(contact.storedLastInteraction, (await ctx.links.contactStats.load(contact)).lastPublished),
    },
  };
}
