import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { mailItem } from './mailItem';
import type { MailConnection, MailInbox, MailRecipients } from './mailPorts';
import { tokenOfAddress } from './inboundAddress';

export interface SmtpListenerOptions<C extends MailConnection> {
  host: string;
  /** 0 for any free port. */
  port: number;
  /** The domain of the connections' addresses (`feedback+<token>@<domain>`). */
  domain: string;
  /** The largest message accepted, in bytes (announced with SIZE, refused with 552 past it). */
  maxBytes: number;
  /** PEM key and certificate: STARTTLS is offered only with them. */
  tls?: { key: Buffer; cert: Buffer };
  recipients: MailRecipients<C>;
  inbox: MailInbox<C>;
  /** Told of a mail that could not be stored (answered 451, so the sender retries); never its content. */
  onError(error: unknown): void;
}

export interface SmtpListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** An SMTP reply with its code, as smtp-server sends a callback's error. */
function reply(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

/**
 * The inbound mail listener: a recipient that names no active connection is refused at RCPT (550), a
 * message over `maxBytes` at DATA (552), and a message is answered 250 only after each of its
 * recipients' connections has it stored; when storing fails the answer is 451 and the sending server
 * tries again later (a redelivery is stored once: the inbox is keyed by Message-ID). No AUTH: anyone may
 * send to an address, as to any mailbox; the token in it is what picks the connection.
 */
export async function startSmtpListener<C extends MailConnection>(
  options: SmtpListenerOptions<C>,
): Promise<SmtpListener> {
  const connectionsOf = async (session: SMTPServerSession): Promise<C[]> => {
    const found = new Map<string, C>();
    for (const { address } of session.envelope.rcptTo) {
      const token = tokenOfAddress(address, options.domain);
      const connection = token ? await options.recipients.connectionOf(token) : null;
      if (connection) found.set(connection.id, connection);
    }
    return [...found.values()];
  };
  const server = new SMTPServer({
    name: options.domain,
    banner: 'feedback intake',
    size: options.maxBytes,
    rejectOversized: true,
    authOptional: true,
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    logger: false,
    onRcptTo(address, _session, callback) {
      const token = tokenOfAddress(address.address, options.domain);
      if (!token) return callback(reply(550, 'No such recipient here'));
      options.recipients.connectionOf(token).then(
        (connection) => callback(connection ? null : reply(550, 'No such recipient here')),
        (error: unknown) => {
          options.onError(error);
          callback(reply(451, 'Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      readAll(stream)
        .then(async (raw) => {
          // Refused with 552 by the server whatever is answered here: nothing of it is kept.
          if (stream.sizeExceeded) return callback(null);
          const item = await mailItem(raw, new Date());
          const connections = await connectionsOf(session);
          for (const connection of connections) await options.inbox.accept(connection, item);
          callback(null, `Queued as ${item.externalId}`);
        })
        .catch((error: unknown) => {
          options.onError(error);
          callback(reply(451, 'Could not store the message now; try again later'));
        });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A broken client connection must not take the listener down.
  server.on('error', options.onError);
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${options.host}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
