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

/** What the feedback service made of one item: the item's id, or why its rules refused it. */
export type AddedItem = { itemId: string } | { refused: string };

export interface FeedbackPort {
  /**
   * Creates the items through the feedback service's rules, in one call (at most MAX_ITEMS_PER_CALL); an
   * item added before (its externalId) answers the item first made. In the items' order.
   */
  addItems(connection: { id: string; orgId: string }, items: NewItem[]): Promise<AddedItem[]>;
}

/** The feedback service's limit per call of addFeedbackItems. */
export const MAX_ITEMS_PER_CALL = 100;

const ADD_ITEMS =
  'mutation($k: String!, $inputs: [NewFeedbackInput!]!) { addFeedbackItems(apiKey: $k, inputs: $inputs) { item { id } refused } }';

/** The feedback service's own `addFeedbackItems` (its internal batch of addFeedbackItem), called as the connection (see serviceCall.ts). */
export function feedbackPort(feedbackUrl: string, options: ServiceCallOptions): FeedbackPort {
  return {
    async addItems(connection, items) {
      const principal = connectionPrincipal(connection, 'key');
      const data = await callService<{
        addFeedbackItems: Array<{ item: { id: string } | null; refused: string | null }>;
      }>(options, feedbackUrl, principal, ADD_ITEMS, {
        k: principal.ref,
        inputs: items.map((item) => ({
          ...item,
          publishedDate: item.publishedDate instanceof Date ? item.publishedDate.toISOString() : item.publishedDate,
        })),
      });
      return data.addFeedbackItems.map((added) =>
        added.item ? { itemId: added.item.id } : { refused: added.refused ?? 'refused' },
      );
    },
  };
}
