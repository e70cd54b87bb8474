import { toPage } from '@fi/shared';
import type { MutationResolvers, QueryResolvers } from '../generated/resolvers';
import type { WebhookEndpoint } from '../data/webhookEndpointStore';
import type { WebhookEndpoints } from './webhookEndpoints';

export const NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS = 'Not authorized to manage webhook endpoints';

/** An endpoint as both schemas answer it: its secret only when just created or rotated. */
export const toGraphQL = (endpoint: WebhookEndpoint & { secret?: string }) => ({
  ...endpoint,
  secret: endpoint.secret ?? null,
  enabled: endpoint.disabledAt === null,
});

/** Webhook operations: any key of the organization may read, only a writer may change. */
export function createWebhookResolvers(webhooks: WebhookEndpoints): {
  Query: Pick<QueryResolvers, 'webhookEndpoints' | 'webhookDeliveries'>;
  Mutation: Pick<
    MutationResolvers,
    'addWebhookEndpoint' | 'removeWebhookEndpoint' | 'sendWebhookTestEvent' | 'redeliverWebhookDelivery' | 'enableWebhookEndpoint' | 'rotateWebhookSecret'
  >;
} {
  return {
    Query: {
      webhookEndpoints: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return (await webhooks.list(caller.orgId)).map(toGraphQL);
      },
      webhookDeliveries: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return webhooks.deliveriesOf(caller.orgId, args.endpointId, toPage(args));
      },
    },
    Mutation: {
      addWebhookEndpoint: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
        const endpoint = await webhooks.add(caller.orgId, args.url, args.events);
        ctx.logger.info({ endpointId: endpoint.id, orgId: caller.orgId }, 'webhook endpoint added');
        return toGraphQL(endpoint);
      },
      removeWebhookEndpoint: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
        await webhooks.remove(caller.orgId, args.id);
        ctx.logger.info({ endpointId: args.id, orgId: caller.orgId }, 'webhook endpoint removed');
        return true;
      },
      sendWebhookTestEvent: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
        return webhooks.sendTest(caller.orgId, args.endpointId);
      },
      redeliverWebhookDelivery: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
        const delivery = await webhooks.redeliver(caller.orgId, args.id);
        ctx.logger.info({ deliveryId: args.id, orgId: caller.orgId }, 'webhook delivery queued again');
        return delivery;
      },
      enableWebhookEndpoint: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
        const endpoint = await webhooks.enable(caller.orgId, args.id);
        ctx.logger.info({ endpointId: args.id, orgId: caller.orgId }, 'webhook endpoint enabled again');
        return toGraphQL(endpoint);
      },
      rotateWebhookSecret: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
        const endpoint = await webhooks.rotateSecret(caller.orgId, args.id);
        // Never the secret itself.
        ctx.logger.info({ endpointId: args.id, orgId: caller.orgId, previousSecretExpiresAt: endpoint.previousSecretExpiresAt }, 'webhook secret rotated');
        return toGraphQL(endpoint);
      },
    },
  };
}
