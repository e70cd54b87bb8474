import type { Kind } from '../model/connection';
import type { ItemMaker, PushConnector } from './connector';
import { intercomItems, intercomPush } from './intercom';
import { slackItems, slackPush } from './slack';
import { webhookItems, webhookPush } from './webhook';
import { zendeskItems, zendeskPush } from './zendesk';

export type {
  ItemMaker,
  ItemOrIgnored,
  MakerContext,
  PlatformApis,
  PushConnector,
  PushRequest,
  Received,
  Verification,
} from './connector';
export { header, objectAt, textAt } from './connector';
export { htmlToText, titleOf } from './htmlText';
export { PULLED_TICKET, ZENDESK_TRIGGER_BODY } from './zendesk';

/** The push platforms: what the receiver verifies and reads for each kind (others have no URL to send to). */
export const PUSH_CONNECTORS: Partial<Record<Kind, PushConnector>> = {
  webhook: webhookPush,
  intercom: intercomPush,
  slack: slackPush,
  zendesk: zendeskPush,
};

/** What the worker makes of each kind's stored events (push events, mails, pulled records). */
export const ITEM_MAKERS: Partial<Record<Kind, ItemMaker>> = {
  webhook: webhookItems,
  intercom: intercomItems,
  slack: slackItems,
  zendesk: zendeskItems,
};
