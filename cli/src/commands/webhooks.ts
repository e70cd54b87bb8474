import { GraphQLError } from 'graphql';
import { loadConfig, type Page } from '@fi/shared';
import { webhookConfigSchema, webhookEndpoints } from '@fi/feedback';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { parseCount } from './seed';
import { developmentWebhookEnv } from '../stack/developmentWebhooks';
import { readRunningStack } from '../stack/stackFile';

export interface WebhooksOptions {
  org?: string;
  url?: string;
  events?: string;
  skip?: string;
  take?: string;
}

/** The feedback service's own settings: against a running `npm start`, its development defaults. */
function webhookSettings(env: NodeJS.ProcessEnv) {
  const development = !env.MONGODB_URI && readRunningStack() ? developmentWebhookEnv(env) : {};
  return loadConfig(webhookConfigSchema, { ...env, ...development });
}

/**
 * `webhooks list|add|remove|deliveries`, through the same rules as the GraphQL API (the feedback
 * service's `WebhookEndpoints`); a refused input exits 2 with the API's message.
 */
export async function webhooksCommand(
  action: string | undefined,
  args: string[],
  options: WebhooksOptions,
  db: Databases,
  out: Output,
  env = process.env,
) {
  if (!options.org) throw new UsageError(`webhooks ${action ?? ''} needs --org ORG`.replace('  ', ' '));
  const { management } = webhookEndpoints(db.feedback, webhookSettings(env));
  try {
    switch (action) {
      case 'list':
        for (const endpoint of await management.list(options.org)) {
          const state = endpoint.disabledAt
            ? `disabled ${endpoint.disabledAt.toISOString()}: ${endpoint.disabledReason}`
            : 'enabled';
          out.result(
            [endpoint.id, endpoint.url, endpoint.events.join(','), endpoint.createdAt.toISOString(), state].join('\t'),
          );
        }
        return;
      case 'add': {
        if (!options.url || !options.events)
          throw new UsageError('webhooks add needs --url URL and --events TYPE[,TYPE...]');
        const endpoint = await management.add(
          options.org,
          options.url,
          options.events.split(',').map((event) => event.trim()),
        );
        out.result(endpoint.secret);
        out.info(`Added endpoint ${endpoint.id} (${endpoint.url}). The signing secret above is shown only this once.`);
        return;
      }
      case 'remove':
        if (!args[0]) throw new UsageError('webhooks remove needs the endpoint id');
        await management.remove(options.org, args[0]);
        out.info(`Removed endpoint ${args[0]}.`);
        return;
      case 'deliveries': {
        if (!args[0]) throw new UsageError('webhooks deliveries needs the endpoint id');
        const page: Page = { skip: parseCount('skip', options.skip, 0), take: parseCount('take', options.take, 20) };
        const { items, total } = await management.deliveriesOf(options.org, args[0], page);
        for (const delivery of items) {
          const last = delivery.attempts.at(-1);
          const outcome = last ? (last.statusCode ?? '-') + (last.error ? ` ${last.error}` : '') : 'not tried yet';
          out.result(
            [
              delivery.eventId,
              delivery.eventType,
              delivery.status,
              `${delivery.attempts.length} attempts`,
              outcome,
            ].join('\t'),
          );
        }
        out.info(`${items.length} of ${total} deliveries`);
        return;
      }
      default:
        throw new UsageError('webhooks needs list, add, remove or deliveries');
    }
  } catch (error) {
    // The domain speaks the API's error vocabulary; for the CLI a refused input is a usage error.
    if (error instanceof GraphQLError && ['BAD_REQUEST', 'NOT_FOUND'].includes(String(error.extensions.code)))
      throw new UsageError(error.message);
    throw error;
  }
}
