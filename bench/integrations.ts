import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { addConnection } from '../test/helpers/integrations';
import { ownDatabaseName, startStack, type Stack } from '../test/helpers/stack';
import { ZendeskServer } from '../test/helpers/zendeskServer';
import { cpuMs } from './targets';

/** How much each path is sent: pushes and mails through the receiver, tickets pulled from Zendesk. */
export interface IntegrationsBenchSize {
  webhooks: number;
  mails: number;
  tickets: number;
  /** Organizations (each with its own connection) the pushes and mails are spread over. */
  organizations: number;
  /** Requests (or SMTP connections) in flight at once. */
  concurrency: number;
  /** Longest wait for the items of a path to be made before the rate is taken over what was made. */
  itemsWaitMs: number;
}

/** What a path's run measured; the CPU per item is added around it. */
type Made = Omit<PathFigures, 'cpuPerItem'>;

interface PathFigures {
  path: string;
  sent: number;
  acceptedPerSecond: number;
  itemsMade: number;
  itemsPerSecond: number;
  /** CPU time per item made: this process (the whole API) and the database, in ms (independent of the machine's load). */
  cpuPerItem: { api: number; database: number | null };
  note: string;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Runs `work` over `count` indexes with `concurrency` in flight. */
async function inParallel(count: number, concurrency: number, work: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let n = next++; n < count; n = next++) await work(n);
    }),
  );
}

/** Items of `source` in the organizations, counted in the feedback database (the bench's own). */
async function itemCount(stack: Stack, orgIds: string[], source: string): Promise<number> {
  const feedback = await stack.connect('feedback');
  return feedback.collection('feedback_items').countDocuments({ orgId: { $in: orgIds }, source });
}

/** Waits until `expected` items exist (or the time is up) and gives the rate from `since`. */
async function itemsMade(
  stack: Stack,
  orgIds: string[],
  source: string,
  expected: number,
  since: number,
  waitMs: number,
) {
  const deadline = Date.now() + waitMs;
  let made = await itemCount(stack, orgIds, source);
  while (made < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    made = await itemCount(stack, orgIds, source);
  }
  return { made, perSecond: made / ((Date.now() - since) / 1000) };
}

async function organizations(stack: Stack, count: number) {
  return Promise.all(Array.from({ length: count }, () => stack.createKey()));
}

/** Standard Webhooks requests, each a new item of its own id, spread over the organizations' connections. */
async function pushBench(stack: Stack, size: IntegrationsBenchSize): Promise<Made> {
  const orgs = await organizations(stack, size.organizations);
  const hooks = await Promise.all(orgs.map(({ orgId }) => addConnection(stack, orgId, { kind: 'webhook' })));
  const started = Date.now();
  let refused = 0;
  await inParallel(size.webhooks, size.concurrency, async (n) => {
    const hook = hooks[n % hooks.length];
    const id = `msg_${randomUUID()}`;
    const body = JSON.stringify({
      title: `Webhook item ${n}`,
      content: `Pushed feedback number ${n}: the export is slow.`,
      externalId: `push-${n}`,
      publishedDate: new Date().toISOString(),
    });
    const at = new Date();
    const response = await fetch(hook.hookUrl as string, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(hook.secret as string).sign(id, at, body),
      },
      body,
    });
    await response.arrayBuffer();
    if (!response.ok) refused += 1;
  });
  const acceptedSeconds = (Date.now() - started) / 1000;
  const items = await itemsMade(
    stack,
    orgs.map((o) => o.orgId),
    'webhook',
    size.webhooks,
    started,
    size.itemsWaitMs,
  );
  return {
    path: 'generic webhook (Standard Webhooks, signed)',
    sent: size.webhooks,
    acceptedPerSecond: (size.webhooks - refused) / acceptedSeconds,
    itemsMade: items.made,
    itemsPerSecond: items.perSecond,
    note: `${size.organizations} organizations, ${size.concurrency} requests in flight${refused ? `, ${refused} not answered 2xx` : ''}`,
  };
}

/** Mails to the organizations' addresses over a pool of SMTP connections. */
async function mailBench(stack: Stack, size: IntegrationsBenchSize): Promise<Made> {
  const orgs = await organizations(stack, size.organizations);
  const addresses = await Promise.all(orgs.map(({ orgId }) => addConnection(stack, orgId, { kind: 'email' })));
  const port = Number(new URL(stack.integrationsReceiver.mailUrl as string).port);
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: size.concurrency,
    maxMessages: Infinity,
  });
  const started = Date.now();
  await inParallel(size.mails, size.concurrency, async (n) => {
    await transport.sendMail({
      from: `"Customer ${n}" <customer${n}@example.com>`,
      to: addresses[n % addresses.length].address as string,
      subject: `Mail item ${n}`,
      messageId: `<${randomUUID()}@example.com>`,
      text: `The export is slow, mail ${n}.\n\nOn Mon, Support wrote:\n> earlier\n`,
    });
  });
  const acceptedSeconds = (Date.now() - started) / 1000;
  transport.close();
  const items = await itemsMade(
    stack,
    orgs.map((o) => o.orgId),
    'email',
    size.mails,
    started,
    size.itemsWaitMs,
  );
  return {
    path: 'email (SMTP, nodemailer pool)',
    sent: size.mails,
    acceptedPerSecond: size.mails / acceptedSeconds,
    itemsMade: items.made,
    itemsPerSecond: items.perSecond,
    note: `${size.organizations} organizations, ${size.concurrency} SMTP connections`,
  };
}

/** One Zendesk connection's first sync of `tickets` tickets from the local Zendesk-speaking server. */
async function pullBench(stack: Stack, zendesk: ZendeskServer, size: IntegrationsBenchSize): Promise<Made> {
  const [org] = await organizations(stack, 1);
  const subdomain = `bench${randomBytes(3).toString('hex')}`;
  const token = randomBytes(16).toString('hex');
  zendesk.account(subdomain, token);
  zendesk.addTickets(subdomain, size.tickets, new Date(Date.now() - 20 * 86_400_000));
  const started = Date.now();
  await addConnection(stack, org.orgId, { kind: 'zendesk', subdomain, token });
  const integrations = await stack.connect('integrations');
  const inbox = integrations.collection('inbox_events');
  // Pulled: every ticket stored in the durable inbox (and the cursor saved after each page).
  while ((await inbox.countDocuments({ orgId: org.orgId })) < size.tickets)
    await new Promise((resolve) => setTimeout(resolve, 500));
  const pulledSeconds = (Date.now() - started) / 1000;
  const items = await itemsMade(stack, [org.orgId], 'zendesk', size.tickets, started, size.itemsWaitMs);
  return {
    path: `Zendesk pull (Incremental Ticket Export, ${size.tickets.toLocaleString('en')} tickets, 1,000 a page)`,
    sent: size.tickets,
    acceptedPerSecond: size.tickets / pulledSeconds,
    itemsMade: items.made,
    itemsPerSecond: items.perSecond,
    note: `pulled into the inbox in ${pulledSeconds.toFixed(1)} s (${zendesk.requestsOf(subdomain).length} requests)`,
  };
}

/**
 * `npm run bench -- --integrations [--quick]`: items per second through the integrations service's push
 * paths (signed generic webhooks, SMTP) and a pull of Zendesk tickets, each path alone, on the whole API
 * in this process (test/helpers/stack.ts) against the bench's database: "accepted" is what the receiver
 * (or the pull into the inbox) takes per second, "items" what the worker made of it per second, through
 * the feedback service's API.
 */
export async function runIntegrationsBench(
  uri: string,
  redisUrl: string,
  size: IntegrationsBenchSize,
  machineLine: string,
  /** The bench's database process (its CPU time per item is reported); null when it is not ours. */
  databasePid: number | null,
) {
  const loadBefore = os.loadavg();
  const zendesk = await ZendeskServer.start();
  // The stack and the helper that adds connections (as the CLI does) read these from the environment.
  Object.assign(process.env, {
    MONGODB_URI: uri,
    REDIS_URL: redisUrl,
    INTEGRATIONS_SECRET_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    IDENTITY_SIGNING_KEYS: `bench:${randomBytes(32).toString('base64url')}`,
  });
  const stack = await startStack(
    {
      ZENDESK_BASE_URL: zendesk.baseUrl,
      PULL_POLL_MS: '200',
      PULL_INTERVAL_MS: '600000',
    },
    {
      databases: {
        feedback: ownDatabaseName('bench_integrations_feedback'),
        integrations: ownDatabaseName('bench_integrations'),
      },
    },
  );
  const figures: PathFigures[] = [];
  try {
    for (const [name, run] of [
      ['push', () => pushBench(stack, size)],
      ['mail', () => mailBench(stack, size)],
      ['pull', () => pullBench(stack, zendesk, size)],
    ] as const) {
      say(`integrations bench: ${name}...`);
      const cpuBefore = { api: process.cpuUsage(), database: databasePid ? cpuMs(databasePid) : null };
      const made = await run();
      const apiMs = (process.cpuUsage(cpuBefore.api).user + process.cpuUsage(cpuBefore.api).system) / 1000;
      const databaseMs = databasePid && cpuBefore.database !== null ? cpuMs(databasePid)! - cpuBefore.database : null;
      const perItem = (ms: number) => ms / Math.max(1, made.itemsMade);
      const result: PathFigures = {
        ...made,
        cpuPerItem: { api: perItem(apiMs), database: databaseMs === null ? null : perItem(databaseMs) },
      };
      say(JSON.stringify(result));
      figures.push(result);
    }
  } finally {
    await stack.close();
    await zendesk.close();
  }
  const rows = figures.map(
    (f) =>
      `| ${f.path} | ${f.sent.toLocaleString('en')} | ${f.acceptedPerSecond.toFixed(0)} | ${f.itemsMade.toLocaleString('en')} | ${f.itemsPerSecond.toFixed(1)} | ${f.cpuPerItem.api.toFixed(1)} / ${f.cpuPerItem.database?.toFixed(1) ?? '-'} | ${f.note} |`,
  );
  const table = [
    `Measured ${new Date().toISOString()}; ${machineLine}; load average at the start ${loadBefore
      .map((l) => l.toFixed(1))
      .join(' ')}, at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}.`,
    '',
    "Each path alone, on the whole API in one process (gateway, subgraphs, integrations API, receiver and worker with its defaults: 4 batches of up to 50 events at once) and the bench's database. Accepted: answered 2xx / 250 (pushes, mails), or stored in the durable inbox with the cursor saved (pull), per second. Items: made by the worker through the feedback service's API, per second from the first request until the last item (or until the wait ran out: then over what was made). CPU per item: the CPU time this process (the whole API, the senders included) and the database used during the path, over the items made: unlike the rates, it does not depend on what else the machine runs.",
    '',
    '| Path | Sent | Accepted/s | Items made | Items/s | CPU ms per item (API / database) | Notes |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
  mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  writeFileSync(path.join(__dirname, 'results', 'latest-integrations.md'), `${table}\n`);
  process.stdout.write(`${table}\n`);
}
