/**
 * `@fi/shared/mail`: sending mail (SMTP through nodemailer, or files in development), apart from the main
 * face so that what never mails (the gateway) does not load nodemailer.
 */
export { createMailTransport, type Mail, type MailTransport } from './mail/mailTransport';
