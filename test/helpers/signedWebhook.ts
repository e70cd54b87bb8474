import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers a sender signs `body` with under `secret` (a fresh message id, now). */
export function signed(secret: string, body: string, id = `msg_${randomUUID()}`, at = new Date()) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}
