import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { inboundAddress, startSmtpListener, type MailConnection, type MailItem, type SmtpListener } from '../src/email';

const DOMAIN = 'in.example.test';
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const CONNECTION: MailConnection = { id: 'conn-1', orgId: 'org-a' };

/** What the listener handed to the inbox; `failing` makes it throw, as a database that is down. */
class RecordingInbox {
  readonly accepted: Array<{ connection: MailConnection; item: MailItem }> = [];
  failing = false;
  async accept(connection: MailConnection, item: MailItem): Promise<void> {
    if (this.failing) throw new Error('database down');
    this.accepted.push({ connection, item });
  }
}

async function listen(inbox: RecordingInbox, extra: { tls?: { key: Buffer; cert: Buffer } } = {}) {
  return startSmtpListener({
    host: '127.0.0.1',
    port: 0,
    domain: DOMAIN,
    maxBytes: 64 * 1024,
    recipients: { connectionOf: async (token) => (token === TOKEN ? CONNECTION : null) },
    inbox,
    onError: () => undefined,
    ...extra,
  });
}

const client = (listener: SmtpListener, options: Record<string, unknown> = {}) =>
  nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true, ...options });

describe('the inbound SMTP listener', () => {
  let inbox: RecordingInbox;
  let listener: SmtpListener;
  beforeEach(async () => {
    inbox = new RecordingInbox();
    listener = await listen(inbox);
  });
  afterEach(() => listener.close());

  test('when a client sends a reply to a connection address, then 250 comes after the inbox stored it as an item without the quote and signature', async () => {
    const info = await client(listener).sendMail({
      from: '"Jane Doe" <Jane@Customer.example>',
      to: inboundAddress(TOKEN, DOMAIN),
      subject: 'Export keeps failing',
      messageId: '<m1@customer.example>',
      date: new Date('2026-11-20T10:00:00Z'),
      text: [
        'The CSV export stops at 80% every time.',
        '',
        'On Thu, Nov 19, 2026 at 9:00 AM Support <support@vendor.example>',
        'wrote:',
        '> Could you tell us more?',
      ].join('\n'),
      attachments: [{ filename: 'screen.png', content: Buffer.alloc(2048, 1), contentType: 'image/png' }],
    });
    expect(info.response).toMatch(/^250 /);
    expect(inbox.accepted).toHaveLength(1);
    const { connection, item } = inbox.accepted[0];
    expect(connection).toEqual(CONNECTION);
    expect(item).toMatchObject({
      source: 'email',
      title: 'Export keeps failing',
      content: 'The CSV export stops at 80% every time.',
      author: 'Jane Doe',
      email: 'jane@customer.example',
      externalId: 'm1@customer.example',
      publishedDate: '2026-11-20T10:00:00.000Z',
    });
    expect(item.metadata.attachments).toEqual([{ filename: 'screen.png', contentType: 'image/png', size: 2048 }]);
    // The attachment's bytes are nowhere in what is stored.
    expect(JSON.stringify(item)).not.toContain(Buffer.alloc(2048, 1).toString('base64').slice(0, 40));
  });

  test('when the only part is HTML, then its text becomes the content, quote and signature left out', async () => {
    await client(listener).sendMail({
      from: 'sam@customer.example',
      to: inboundAddress(TOKEN, DOMAIN),
      subject: 'Dark mode',
      html: '<p>Please add a <b>dark mode</b>.</p><p>--<br>Sam, ACME Corp</p><blockquote>earlier mail</blockquote>',
    });
    expect(inbox.accepted[0].item).toMatchObject({
      content: 'Please add a dark mode.',
      author: 'sam@customer.example',
      email: 'sam@customer.example',
    });
  });

  test('when a recipient names no connection, then RCPT is refused with 550 and nothing is stored', async () => {
    const sending = client(listener).sendMail({
      from: 'x@customer.example',
      to: [inboundAddress('f'.repeat(40), DOMAIN)],
      subject: 'hello',
      text: 'hello',
    });
    await expect(sending).rejects.toMatchObject({ responseCode: 550, command: 'RCPT TO' });
    const otherDomain = client(listener).sendMail({
      from: 'x@customer.example',
      to: `feedback+${TOKEN}@elsewhere.example`,
      subject: 'hello',
      text: 'hello',
    });
    await expect(otherDomain).rejects.toMatchObject({ responseCode: 550 });
    expect(inbox.accepted).toHaveLength(0);
  });

  test('when a message is over the size limit, then it is refused with 552 and nothing is stored', async () => {
    const sending = client(listener).sendMail({
      from: 'x@customer.example',
      to: inboundAddress(TOKEN, DOMAIN),
      subject: 'big',
      text: 'x'.repeat(100 * 1024),
    });
    await expect(sending).rejects.toMatchObject({ responseCode: 552 });
    expect(inbox.accepted).toHaveLength(0);
  });

  test('when the inbox cannot store the mail, then the answer is 451 (the sender keeps it and retries)', async () => {
    inbox.failing = true;
    const sending = client(listener).sendMail({
      from: 'x@customer.example',
      to: inboundAddress(TOKEN, DOMAIN),
      subject: 'retry me',
      text: 'body',
    });
    await expect(sending).rejects.toMatchObject({ responseCode: 451 });
  });

  test('when a mail has no Message-ID, then the same bytes delivered twice carry the same external id', async () => {
    const raw = [
      'From: a@customer.example',
      `To: ${inboundAddress(TOKEN, DOMAIN)}`,
      'Subject: no id',
      '',
      'Body',
      '',
    ].join('\r\n');
    const envelope = { from: 'a@customer.example', to: [inboundAddress(TOKEN, DOMAIN)] };
    await client(listener).sendMail({ envelope, raw });
    await client(listener).sendMail({ envelope, raw });
    const [first, second] = inbox.accepted.map(({ item }) => item.externalId);
    expect(first).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second).toBe(first);
  });
});

describe('the inbound SMTP listener with a certificate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fi-smtp-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${DOMAIN}`,
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when a certificate is configured, then STARTTLS is offered and a client that requires it delivers', async () => {
    const inbox = new RecordingInbox();
    const listener = await listen(inbox, {
      tls: { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) },
    });
    try {
      const info = await client(listener, {
        ignoreTLS: false,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
      }).sendMail({ from: 'a@customer.example', to: inboundAddress(TOKEN, DOMAIN), subject: 'tls', text: 'over TLS' });
      expect(info.response).toMatch(/^250 /);
      expect(inbox.accepted[0].item.content).toBe('over TLS');
    } finally {
      await listener.close();
    }
  });

  test('when no certificate is configured, then a client that requires STARTTLS is refused it', async () => {
    const inbox = new RecordingInbox();
    const listener = await listen(inbox);
    try {
      const sending = client(listener, { ignoreTLS: false, requireTLS: true }).sendMail({
        from: 'a@customer.example',
        to: inboundAddress(TOKEN, DOMAIN),
        subject: 'tls',
        text: 'x',
      });
      await expect(sending).rejects.toThrow();
      expect(inbox.accepted).toHaveLength(0);
    } finally {
      await listener.close();
    }
  });
});
