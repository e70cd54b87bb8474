import type { Logger } from '@fi/shared';
import { createMailTransport } from '@fi/shared/mail';
import type { LinkMailer } from '../domain/accountLinks';

/**
 * Production: mail through the SMTP server of SMTP_URL. Development (no SMTP_URL, NODE_ENV not
 * production): the link is written to the service's log, as `npm start` users read it there; in
 * production without SMTP_URL no link is ever logged: sending fails and the operation says so.
 */
export function createLinkMailer(
  options: { smtpUrl: string; from: string; production: boolean },
  logger: Logger,
): LinkMailer | null {
  const transport = createMailTransport({ smtpUrl: options.smtpUrl, from: options.from });
  if (transport) return { send: ({ to, subject, text }) => transport.send({ to, subject, text }) };
  if (options.production) return null;
  return {
    async send({ to, link, purpose }) {
      logger.info(
        { to, purpose, link },
        `${purpose} link (development: SMTP_URL is not set, so it is logged instead of mailed)`,
      );
    },
  };
}
