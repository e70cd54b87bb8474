import type { MailItem } from './mailItem';

/** The email connection an address names. */
export interface MailConnection {
  id: string;
  orgId: string;
}

/** Finds the email connection of an address's token that takes mail; null for none (or a paused or removed one). */
export interface MailRecipients<C extends MailConnection = MailConnection> {
  connectionOf(token: string): Promise<C | null>;
}

/**
 * Where accepted mail goes: `accept` resolves only once the item is stored durably (the SMTP answer 250
 * follows it, so the sending server forgets the mail only when it can no longer be lost). Idempotent by
 * (connection, externalId): a redelivered mail is stored once.
 */
export interface MailInbox<C extends MailConnection = MailConnection> {
  accept(connection: C, item: MailItem): Promise<void>;
}
