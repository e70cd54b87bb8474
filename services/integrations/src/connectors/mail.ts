import type { NewItem } from '../ports';
import type { ItemMaker } from './connector';

/** What the SMTP listener (src/email) stores for a mail: its payload is the item's fields already. */
export const MAIL_RECEIVED = 'email.received';

/** The worker's side of a stored mail: its fields go to the feedback service as they are (null: absent). */
export const mailItems: ItemMaker = {
  async toItem(event) {
    if (event.type !== MAIL_RECEIVED || !event.payload || typeof event.payload !== 'object')
      return { ignored: `nothing is made of ${event.type} events` };
    const fields = Object.entries(event.payload as Record<string, unknown>).filter(([, value]) => value !== null);
    return { item: Object.fromEntries(fields) as unknown as NewItem };
  },
};
