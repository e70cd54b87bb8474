import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The whole message as sent (headers and MIME parts). */
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every mail it is given. */
export class SmtpReceiver {
  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
    readonly mails: ReceivedMail[],
  ) {}

  static async start(): Promise<SmtpReceiver> {
    const mails: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    return new SmtpReceiver(server, `smtp://127.0.0.1:${port}`, mails);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A mail's raw text with quoted-printable undone (soft line breaks joined, =XX bytes decoded), to read its parts. */
export function decodedText(mail: ReceivedMail): string {
  const joined = mail.raw.replace(/\r\n/g, '\n').replace(/=\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}
