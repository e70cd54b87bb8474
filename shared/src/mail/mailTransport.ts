import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** One mail: a text part always, an HTML part when given. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailTransport {
  send(mail: Mail): Promise<void>;
}

/**
 * Where mail goes: through the SMTP server of `smtpUrl` (nodemailer), or, without one, written as `.eml`
 * files under `dir` (development: `npm start` sets it to `.data/mail/`, where a person opens them in any
 * mail reader). Null when neither is set: the caller says mail is not configured.
 */
export function createMailTransport(options: { smtpUrl: string; from: string; dir?: string }): MailTransport | null {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  const dir = options.dir;
  if (!dir) return null;
  // nodemailer builds the same RFC 5322 message it would send, into a buffer.
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let written = 0;
  return {
    async send(mail) {
      const info = await builder.sendMail({ from: options.from, ...mail });
      await mkdir(dir, { recursive: true });
      written += 1;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${written}.eml`;
      await writeFile(path.join(dir, name), info.message as Buffer);
    },
  };
}
