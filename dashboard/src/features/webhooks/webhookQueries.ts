import { gql } from '@urql/core';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  secret: string | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  nextAttemptAt: string | null;
  createdAt: string;
  attempts: Array<{ at: string; statusCode: number | null; error: string | null; durationMs: number }>;
}

/** The events an endpoint may receive, as the feedback service names them, with what each means. */
export const EVENTS = [
  { type: 'feedback.created', label: 'Feedback added' },
  { type: 'feedback.status_changed', label: 'Status changed' },
  { type: 'feedback.deleted', label: 'Feedback deleted' },
  { type: 'export.completed', label: 'Export completed' },
  { type: 'export.failed', label: 'Export failed' },
] as const;

const ENDPOINT =
  'id url events secret enabled disabledAt disabledReason failingSince previousSecretExpiresAt createdAt';
const DELIVERY = 'id eventId eventType status nextAttemptAt createdAt attempts { at statusCode error durationMs }';

export const WEBHOOK_ENDPOINTS = gql<{ webhookEndpoints: WebhookEndpoint[] }>`
  query WebhookEndpoints { webhookEndpoints { ${ENDPOINT} } }
`;

export const ADD_WEBHOOK_ENDPOINT = gql<{ addWebhookEndpoint: WebhookEndpoint }, { url: string; events: string[] }>`
  mutation AddWebhookEndpoint($url: String!, $events: [String!]!) { addWebhookEndpoint(url: $url, events: $events) { ${ENDPOINT} } }
`;

export const REMOVE_WEBHOOK_ENDPOINT = gql<{ removeWebhookEndpoint: boolean }, { id: string }>`
  mutation RemoveWebhookEndpoint($id: String!) {
    removeWebhookEndpoint(id: $id)
  }
`;

export const WEBHOOK_DELIVERIES = gql<
  { webhookDeliveries: { total: number; items: WebhookDelivery[] } },
  { endpointId: string; skip: number; take: number }
>`
  query WebhookDeliveries($endpointId: String!, $skip: Int, $take: Int) {
    webhookDeliveries(endpointId: $endpointId, skip: $skip, take: $take) {
      total
      items { ${DELIVERY} }
    }
  }
`;

export const SEND_WEBHOOK_TEST_EVENT = gql<{ sendWebhookTestEvent: WebhookDelivery }, { endpointId: string }>`
  mutation SendWebhookTestEvent($endpointId: String!) { sendWebhookTestEvent(endpointId: $endpointId) { ${DELIVERY} } }
`;

export const REDELIVER_WEBHOOK_DELIVERY = gql<{ redeliverWebhookDelivery: WebhookDelivery }, { id: string }>`
  mutation RedeliverWebhookDelivery($id: String!) { redeliverWebhookDelivery(id: $id) { ${DELIVERY} } }
`;

export const ENABLE_WEBHOOK_ENDPOINT = gql<{ enableWebhookEndpoint: WebhookEndpoint }, { id: string }>`
  mutation EnableWebhookEndpoint($id: String!) { enableWebhookEndpoint(id: $id) { ${ENDPOINT} } }
`;

export const ROTATE_WEBHOOK_SECRET = gql<{ rotateWebhookSecret: WebhookEndpoint }, { id: string }>`
  mutation RotateWebhookSecret($id: String!) { rotateWebhookSecret(id: $id) { ${ENDPOINT} } }
`;
