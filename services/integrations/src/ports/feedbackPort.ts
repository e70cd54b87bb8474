import { callService, connectionPrincipal, type ServiceCallOptions } from './serviceCall';

/** An item as a connector makes it of a platform's event: NewFeedbackInput's fields. */
export interface NewItem {
  /** The platform: webhook, intercom, slack, zendesk, email. */
  source: string;
  title: string;
  content: string;
  author?: string;
  email?: string;
  sentiment?: string;
  /** The platform's id of what the item is made of: unique per organization and source. */
  externalId: string;
  /** When it was written on the platform (an ISO 8601 string as a platform sends it, or a Date). */
  publishedDate?: Date | string;
  /** A link back (`url`) and what the platform says of it. */
  metadata?: Record<string, unknown>;
}

export interface FeedbackPort {
  /** Creates the item through the feedback service's rules; a redelivery returns the item first made. */
  addItem(connection: { id: string; orgId: string }, item: NewItem): Promise<{ itemId: string }>;
}

const ADD_ITEM =
  'mutation($k: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $k, input: $input) { id } }';

/** The feedback service's own `addFeedbackItem`, called as the connection (see serviceCall.ts). */
export function feedbackPort(feedbackUrl: string, options: ServiceCallOptions): FeedbackPort {
  return {
    async addItem(connection, item) {
      const principal = connectionPrincipal(connection, 'key');
      const data = await callService<{ addFeedbackItem: { id: string } }>(options, feedbackUrl, principal, ADD_ITEM, {
        k: principal.ref,
        input: {
          ...item,
          publishedDate: item.publishedDate instanceof Date ? item.publishedDate.toISOString() : item.publishedDate,
        },
      });
      return { itemId: data.addFeedbackItem.id };
    },
  };
}
