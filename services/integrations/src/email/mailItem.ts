import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject } from 'mailparser';
import { replyText } from './replyText';

/** What one received mail becomes: a new feedback item's fields, keyed by the mail's Message-ID. */
export interface MailItem {
  source: 'email';
  title: string;
  content: string;
  author: string | null;
  email: string | null;
  /** The Message-ID (without its angle brackets): a redelivered mail carries the same one. */
  externalId: string;
  publishedDate: string;
  metadata: {
    messageId: string;
    /** Attachments are never stored: only their names, types and sizes are kept. */
    attachments: Array<{ filename: string | null; contentType: string; size: number }>;
    inReplyTo?: string;
  };
}

/** The longest title taken from a mail without a subject: its first line, cut here. */
const TITLE_FROM_BODY = 120;

function firstAddress(from: AddressObject | AddressObject[] | undefined) {
  const list = Array.isArray(from) ? from.flatMap((one) => one.value) : (from?.value ?? []);
  return list.find((one) => one.address) ?? null;
}

/**
 * A raw RFC 5322 message as an item: subject as title; the text part (or the HTML reduced to text by
 * mailparser) without quoted replies and signature as content; From as author and email; Message-ID as
 * the external id. A mail without a Message-ID (RFC 5322 makes it optional) is keyed by a hash of its
 * bytes, so the same mail redelivered still makes one item.
 */
export async function mailItem(raw: Buffer, receivedAt: Date): Promise<MailItem> {
  // Attachments are read (their names and sizes) but never kept; skipping the HTML-as-text copy saves work.
  const mail = await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true });
  const messageId =
    mail.messageId?.replace(/^<|>$/g, '').trim() || `sha256:${createHash('sha256').update(raw).digest('hex')}`;
  const content = replyText(mail.text ?? '');
  const subject = mail.subject?.trim() ?? '';
  const title = subject || content.split('\n', 1)[0].slice(0, TITLE_FROM_BODY) || '(no subject)';
  const from = firstAddress(mail.from);
  const inReplyTo = mail.inReplyTo?.replace(/^<|>$/g, '').trim();
  return {
    source: 'email',
    title,
    // An empty body (a mail that is all subject, or all quote) still says something: its subject.
    content: content || title,
    author: from?.name?.trim() || from?.address || null,
    email: from?.address?.toLowerCase() ?? null,
    externalId: messageId,
    // The sender's Date header, unless it is missing or in the future (a wrong clock).
    publishedDate: (mail.date && mail.date <= receivedAt ? mail.date : receivedAt).toISOString(),
    metadata: {
      messageId,
      attachments: mail.attachments.map((attachment) => ({
        filename: attachment.filename ?? null,
        contentType: attachment.contentType,
        size: attachment.size,
      })),
      ...(inReplyTo ? { inReplyTo } : {}),
    },
  };
}
