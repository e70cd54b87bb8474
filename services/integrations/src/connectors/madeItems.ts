import type { NewItem } from '../ports';
import type { ItemMaker } from './connector';

/** Inbox event types whose payload is the item itself, made before it was stored. */
export const MADE_ITEM_EVENTS = {
  /** A received mail (src/email). */
  mail: 'email.received',
  /** A record read from a platform by the pull worker (src/pull). */
  pulled: 'record.pulled',
} as const;

/** The payload's fields as NewItem takes them: a field the platform left empty (null) is absent. */
function asNewItem(payload: Record<string, unknown>): NewItem {
  return Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== null)) as unknown as NewItem;
}

/**
 * The maker of events stored already made (mails, pulled records): their payload goes to the feedback
 * service as it is, whose rules decide; other events of the kind go to `pushed`, the kind's push maker.
 */
export function madeItems(pushed?: ItemMaker): ItemMaker {
  const made = new Set<string>(Object.values(MADE_ITEM_EVENTS));
  return {
    async toItem(event, context) {
      if (made.has(event.type) && event.payload && typeof event.payload === 'object')
        return { item: asNewItem(event.payload as Record<string, unknown>) };
      if (pushed) return pushed.toItem(event, context);
      return { ignored: `nothing is made of ${event.type} events` };
    },
  };
}
