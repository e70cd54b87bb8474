import { randomUUID } from 'node:crypto';
import nodemailer, { type SendMailOptions, type SentMessageInfo } from 'nodemailer';
import { identityAudit, integrationParts, loadIntegrationsConfig } from '@fi/integrations';
import { createLogger } from '@fi/shared';
import { addConnection, itemsOf, listIntegrations } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';

describe('email connections (inbound SMTP)', () => {
  let stack: Stack;
  let send: (mail: SendMailOptions) => Promise<SentMessageInfo>;
  beforeAll(async () => {
    stack = await startStack();
    const port = Number(new URL(stack.integrationsReceiver.mailUrl as string).port);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    send = (mail) => transport.sendMail(mail);
  });
  afterAll(async () => {
    await stack.close();
  });

  const reply = (to: string | string[], messageId: string, subject = 'Export keeps failing') => ({
    from: '"Grace Hopper" <Grace@Customer.example>',
    to,
    subject,
    messageId,
    date: new Date('2026-11-20T09:30:00Z'),
    text: 'The export stops at 80%.\n\nOn Thu, Nov 19, 2026, Support <support@vendor.example> wrote:\n> Does it still fail?\n\n-- \nGrace, Customer Inc.',
    attachments: [{ filename: 'log.txt', content: 'secret log line' }],
  });

  test('when a mail reaches a connection address, then it is answered 250 and becomes one item, and its redelivery makes no second one', async () => {
    const { key, orgId } = await stack.createKey();
    const mail = await addConnection(stack, orgId, { kind: 'email', name: 'Support mail' });
    expect(mail.address).toMatch(/^feedback\+[0-9a-f]{40}@localhost$/);
    const messageId = `<${randomUUID()}@customer.example>`;

    expect((await send(reply(mail.address!, messageId))).response).toMatch(/^250 /);
    // The sending server did not hear our 250 (a dropped connection) and sends the same mail again.
    expect((await send(reply(mail.address!, messageId))).response).toMatch(/^250 /);
    // A later, different mail: once its item exists, the redelivery has been worked on too.
    await send(reply(mail.address!, `<${randomUUID()}@customer.example>`, 'Second mail'));
    await eventually(
      async () => (await itemsOf(stack, key, 'email')).items.some((item) => item.title === 'Second mail'),
      30_000,
      'the second mail',
    );
    const { total, items } = await itemsOf(stack, key, 'email');
    expect(total).toBe(2);
    expect(items.find((item) => item.title === 'Export keeps failing')).toMatchObject({
      source: 'email',
      content: 'The export stops at 80%.',
      author: 'Grace Hopper',
      email: 'grace@customer.example',
      externalId: messageId.slice(1, -1),
      publishedDate: '2026-11-20T09:30:00.000Z',
      metadata: { attachments: [{ filename: 'log.txt', contentType: 'text/plain', size: 15 }] },
    });
    expect(JSON.stringify(items)).not.toContain('secret log line');
    const [listed] = await listIntegrations(stack, key);
    expect(listed).toMatchObject({ kind: 'email', itemsReceived: 2, lastError: null });
    expect(listed.lastEventAt).not.toBeNull();
  });

  test('when a mail goes to two organizations and an unknown address, then the unknown is refused with 550 and each organization gets its own item', async () => {
    const a = await stack.createKey();
    const b = await stack.createKey();
    const mailA = await addConnection(stack, a.orgId, { kind: 'email' });
    const mailB = await addConnection(stack, b.orgId, { kind: 'email' });
    const unknown = `feedback+${'0'.repeat(40)}@localhost`;
    const messageId = `<${randomUUID()}@x.example>`;
    // The address's case changed on the way (some mail systems do): it still names the connection.
    const sent = await send(reply([mailA.address!, mailB.address!.toUpperCase(), unknown], messageId));
    expect(sent.response).toMatch(/^250 /);
    expect(sent.rejected).toEqual([unknown]);
    expect(sent.rejectedErrors[0]).toMatchObject({ responseCode: 550, command: 'RCPT TO' });
    await eventually(async () => (await itemsOf(stack, b.key, 'email')).total === 1, 30_000, "b's item");
    await eventually(async () => (await itemsOf(stack, a.key, 'email')).total === 1, 30_000, "a's item");
    expect((await itemsOf(stack, a.key, 'email')).items[0].externalId).toBe(messageId.slice(1, -1));
    expect((await itemsOf(stack, b.key, 'email')).items[0].externalId).toBe(messageId.slice(1, -1));
  });

  test('when the connection is paused, then its mail is refused at RCPT with 550 and nothing is stored', async () => {
    const { key, orgId } = await stack.createKey();
    const mail = await addConnection(stack, orgId, { kind: 'email' });
    const { connections } = integrationParts(
      await stack.connect('integrations'),
      loadIntegrationsConfig({ ...process.env, PORT: '0' }),
      identityAudit(stack.identity.url, 5_000),
      createLogger('test', 'silent'),
    );
    await connections.pause(orgId, { memberId: null }, mail.integration.id);
    await expect(send(reply(mail.address!, `<${randomUUID()}@x.example>`))).rejects.toMatchObject({
      responseCode: 550,
      command: 'RCPT TO',
    });
    await connections.resume(orgId, { memberId: null }, mail.integration.id);
    expect((await send(reply(mail.address!, `<${randomUUID()}@x.example>`))).response).toMatch(/^250 /);
    await eventually(async () => (await itemsOf(stack, key, 'email')).total === 1, 30_000, 'the item after resuming');
  });
});
