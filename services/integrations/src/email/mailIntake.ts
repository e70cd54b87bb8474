import { readFileSync } from 'node:fs';
import type { Logger } from '@fi/shared';
import type { IntegrationsReceiverConfig } from '../config';
import { MAIL_RECEIVED } from '../connectors';
import type { ConnectionStore } from '../data/connectionStore';
import type { InboxStore } from '../data/inboxStore';
import { tokenHash } from '../domain/connectionTokens';
import type { Connection } from '../model/connection';
import { startSmtpListener, type SmtpListener } from './smtpListener';

/**
 * The receiver's SMTP listener (none with INBOUND_SMTP_PORT -1): a mail to an active or failing email
 * connection's address is stored in the durable inbox, keyed by its Message-ID, before it is answered
 * 250; the worker makes its item as for any event. A paused connection refuses its mail at RCPT.
 */
export async function startMailIntake(
  config: IntegrationsReceiverConfig,
  stores: { connections: ConnectionStore; inbox: InboxStore },
  logger: Logger,
): Promise<SmtpListener | null> {
  if (config.inboundSmtpPort < 0) return null;
  const tls =
    config.inboundTlsKeyFile && config.inboundTlsCertFile
      ? { key: readFileSync(config.inboundTlsKeyFile), cert: readFileSync(config.inboundTlsCertFile) }
      : undefined;
  const listener = await startSmtpListener<Connection>({
    host: config.host,
    port: config.inboundSmtpPort,
    domain: config.inboundMailDomain,
    maxBytes: config.inboundMaxBytes,
    tls,
    recipients: {
      async connectionOf(token) {
        const connection = await stores.connections.findByTokenHash(tokenHash(token));
        return connection?.kind === 'email' && connection.status !== 'paused' ? connection : null;
      },
    },
    inbox: {
      async accept(connection, item) {
        const { stored } = await stores.inbox.store(connection, {
          deliveryKey: item.externalId,
          type: MAIL_RECEIVED,
          payload: item,
        });
        if (stored) await stores.connections.recordEvent(connection.id, new Date());
      },
    },
    // The message names the failure only: never the mail, its sender or the address's token.
    onError: (error) => logger.warn({ err: error }, 'inbound mail not stored (answered 451: the sender retries)'),
  });
  logger.info({ url: listener.url, tls: Boolean(tls) }, 'inbound mail listening');
  return listener;
}
