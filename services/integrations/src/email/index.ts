export { inboundAddress, tokenOfAddress } from './inboundAddress';
export { startMailIntake } from './mailIntake';
export { mailItem, type MailItem } from './mailItem';
export type { MailConnection, MailInbox, MailRecipients } from './mailPorts';
export { replyText } from './replyText';
export { startSmtpListener, type SmtpListener, type SmtpListenerOptions } from './smtpListener';
