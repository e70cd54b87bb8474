const ENDPOINT_FIELDS = 'id url events secret enabled disabledAt disabledReason failingSince createdAt';
export const ADD_ENDPOINT = `mutation($k: String!, $url: String!, $events: [String!]!) { addWebhookEndpoint(apiKey: $k, url: $url, events: $events) { ${ENDPOINT_FIELDS} } }`;
export const LIST_ENDPOINTS = `query($k: String!) { webhookEndpoints(apiKey: $k) { ${ENDPOINT_FIELDS} } }`;
export const REMOVE_ENDPOINT = `mutation($k: String!, $id: String!) { removeWebhookEndpoint(apiKey: $k, id: $id) }`;
export const DELIVERIES = `query($k: String!, $id: String!, $skip: Int, $take: Int) {
  webhookDeliveries(apiKey: $k, endpointId: $id, skip: $skip, take: $take) {
    total items { id eventId eventType status nextAttemptAt attempts { at statusCode error durationMs } }
  }
}`;

/** Fast retries so tests take seconds: 50-100 ms before the first retry, at most 300 ms, given up after 8 s (long enough for a loaded machine). */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_PRIVATE_TARGETS: 'loopback',
  WEBHOOK_POLL_INTERVAL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '700',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '300',
  WEBHOOK_RETRY_WINDOW_MS: '8000',
};
