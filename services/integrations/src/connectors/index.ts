import type { Kind } from '../model/connection';
import type { ItemMaker, PushConnector } from './connector';
import { webhookItems, webhookPush } from './webhook';

export type { ItemMaker, ItemOrIgnored, PushConnector, PushRequest, Received, Verification } from './connector';
export { header } from './connector';

/** The push platforms: what the receiver verifies and reads for each kind (others have no URL to send to). */
export const PUSH_CONNECTORS: Partial<Record<Kind, PushConnector>> = {
  webhook: webhookPush,
};

/** What the worker makes of each kind's stored events (push events, mails, pulled records). */
export const ITEM_MAKERS: Partial<Record<Kind, ItemMaker>> = {
  webhook: webhookItems,
};
