// The documents are in webhooks.graphql; `npm run codegen` types them against the admin API.
import type { DeliveryFieldsFragment, EndpointFieldsFragment } from '../../generated/graphql';

export {
  AddWebhookEndpointDocument as ADD_WEBHOOK_ENDPOINT,
  EnableWebhookEndpointDocument as ENABLE_WEBHOOK_ENDPOINT,
  RedeliverWebhookDeliveryDocument as REDELIVER_WEBHOOK_DELIVERY,
  RemoveWebhookEndpointDocument as REMOVE_WEBHOOK_ENDPOINT,
  RotateWebhookSecretDocument as ROTATE_WEBHOOK_SECRET,
  SendWebhookTestEventDocument as SEND_WEBHOOK_TEST_EVENT,
  WebhookDeliveriesDocument as WEBHOOK_DELIVERIES,
  WebhookEndpointsDocument as WEBHOOK_ENDPOINTS,
} from '../../generated/graphql';

export type WebhookEndpoint = EndpointFieldsFragment;
export type WebhookDelivery = DeliveryFieldsFragment;

/** The events an endpoint may receive, as the feedback service names them, with what each means. */
export const EVENTS = [
  { type: 'feedback.created', label: 'Feedback added' },
  { type: 'feedback.status_changed', label: 'Status changed' },
  { type: 'feedback.deleted', label: 'Feedback deleted' },
  { type: 'export.completed', label: 'Export completed' },
  { type: 'export.failed', label: 'Export failed' },
  { type: 'alert.triggered', label: 'Alert opened' },
  { type: 'alert.resolved', label: 'Alert closed' },
] as const;
