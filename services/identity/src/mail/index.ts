// Mail of single-use links (invitations, password resets): SMTP, or the log in development.
export { createLinkMailer } from './linkMailer';
