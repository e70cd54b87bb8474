import { toPage, type Logger, type SubgraphContext } from '@fi/shared';
import type { MutationResolvers, QueryResolvers } from '../generated/resolvers';
import type { WebhookEndpoint } from './data/webhookEndpointStore';
import type { WebhookEndpoints } from './webhookEndpoints';

export const NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS = 'Not authorized to manage webhook endpoints';

/** An endpoint as both schemas answer it: its secret only when just created or rotated. */
export const toGraphQL = (endpoint: WebhookEndpoint & { secret?: string }) => ({
  ...endpoint,
  secret: endpoint.secret ?? null,
  enabled: endpoint.disabledAt === null,
});

/** Who asked for a change, in its log line: an API key, or a member in the web application. */
type By = 'key' | 'member';

/**
 * The webhook changes both schemas offer, written once: each asks the rules (WebhookEndpoints), logs what
 * it did (never a secret) and answers in the schemas' shape. The schemas decide only who may.
 */
export function webhookChanges(webhooks: WebhookEndpoints) {
  return {
    add: async (orgId: string, url: string, events: string[], logger: Logger, by: By) => {
      const endpoint = await webhooks.add(orgId, url, events);
      logger.info({ endpointId: endpoint.id, orgId, by }, 'webhook endpoint added');
      return toGraphQL(endpoint);
    },
    remove: async (orgId: string, id: string, logger: Logger, by: By) => {
      await webhooks.remove(orgId, id);
      logger.info({ endpointId: id, orgId, by }, 'webhook endpoint removed');
      return true;
    },
    sendTest: (orgId: string, endpointId: string) => webhooks.sendTest(orgId, endpointId),
    redeliver: async (orgId: string, id: string, logger: Logger, by: By) => {
      const delivery = await webhooks.redeliver(orgId, id);
      logger.info({ deliveryId: id, orgId, by }, 'webhook delivery queued again');
      return delivery;
    },
    enable: async (orgId: string, id: string, logger: Logger, by: By) => {
      const endpoint = await webhooks.enable(orgId, id);
      logger.info({ endpointId: id, orgId, by }, 'webhook endpoint enabled again');
      return toGraphQL(endpoint);
    },
    rotateSecret: async (orgId: string, id: string, logger: Logger, by: By) => {
      const endpoint = await webhooks.rotateSecret(orgId, id);
      logger.info(
        { endpointId: id, orgId, by, previousSecretExpiresAt: endpoint.previousSecretExpiresAt },
        'webhook secret rotated',
      );
      return toGraphQL(endpoint);
    },
  };
}

/** Webhook operations: any key of the organization may read, only a writer may change. */
export function createWebhookResolvers(webhooks: WebhookEndpoints): {
  Query: Pick<QueryResolvers, 'webhookEndpoints' | 'webhookDeliveries'>;
  Mutation: Pick<
    MutationResolvers,
    | 'addWebhookEndpoint'
    | 'removeWebhookEndpoint'
    | 'sendWebhookTestEvent'
    | 'redeliverWebhookDelivery'
    | 'enableWebhookEndpoint'
    | 'rotateWebhookSecret'
  >;
} {
  const changes = webhookChanges(webhooks);
  const writer = (ctx: SubgraphContext, apiKey: string) =>
    ctx.auth.requireWriter(apiKey, NOT_AUTHORIZED_TO_MANAGE_WEBHOOKS);
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
      addWebhookEndpoint: async (_, args, ctx) =>
        changes.add((await writer(ctx, args.apiKey)).orgId, args.url, args.events, ctx.logger, 'key'),
      removeWebhookEndpoint: async (_, args, ctx) =>
        changes.remove((await writer(ctx, args.apiKey)).orgId, args.id, ctx.logger, 'key'),
      sendWebhookTestEvent: async (_, args, ctx) =>
        changes.sendTest((await writer(ctx, args.apiKey)).orgId, args.endpointId),
      redeliverWebhookDelivery: async (_, args, ctx) =>
        changes.redeliver((await writer(ctx, args.apiKey)).orgId, args.id, ctx.logger, 'key'),
      enableWebhookEndpoint: async (_, args, ctx) =>
        changes.enable((await writer(ctx, args.apiKey)).orgId, args.id, ctx.logger, 'key'),
      rotateWebhookSecret: async (_, args, ctx) =>
        changes.rotateSecret((await writer(ctx, args.apiKey)).orgId, args.id, ctx.logger, 'key'),
    },
  };
}
