/** HTTP headers the gateway passes on to subgraphs, named once for both sides. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** A client's retry token for addFeedbackItem (the IETF Idempotency-Key header). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
