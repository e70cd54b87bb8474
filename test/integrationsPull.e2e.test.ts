import { freePort } from '@fi/cli/embedded';
import { addConnection, itemsOf, listIntegrations } from './helpers/integrations';
import { HubSpotServer } from './helpers/hubspotServer';
import { eventually, spawnEntry, untilReady, type Spawned } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { ZendeskServer } from './helpers/zendeskServer';

const DAY = 86_400_000;

/** Every ticket item of the key's organization (itemsOf shows the first 100). */
async function ticketCount(stack: Stack, key: string): Promise<number> {
  return (await itemsOf(stack, key, 'zendesk')).total;
}

describe('pull connections through the integrations worker', () => {
  let zendesk: ZendeskServer;
  let hubspot: HubSpotServer;
  let stack: Stack;
  const integrationsDb = ownDatabaseName('pull');
  beforeAll(async () => {
    zendesk = await ZendeskServer.start();
    hubspot = await HubSpotServer.start();
    // An integrations database of its own: no other test's worker pulls these connections.
    stack = await startStack(
      {
        ZENDESK_BASE_URL: zendesk.baseUrl,
        HUBSPOT_BASE_URL: hubspot.url,
        PULL_POLL_MS: '100',
        PULL_LEASE_MS: '2000',
        // A connection that caught up is due again at once: a change on the platform arrives in a moment.
        PULL_INTERVAL_MS: '0',
      },
      { databases: { integrations: integrationsDb } },
    );
  });
  afterAll(async () => {
    await stack.close();
    await Promise.all([zendesk.close(), hubspot.close()]);
  });

  test('when two organizations connect Zendesk, then each gets its own tickets as items, keyed by ticket id, with a link back', async () => {
    const a = await stack.createKey();
    const b = await stack.createKey();
    zendesk.account('acme-a', 'zd-token-a');
    zendesk.account('acme-b', 'zd-token-b');
    zendesk.addTickets('acme-a', 12, new Date(Date.now() - DAY));
    zendesk.addTickets('acme-b', 5, new Date(Date.now() - DAY));
    await addConnection(stack, a.orgId, { kind: 'zendesk', subdomain: 'acme-a', token: 'zd-token-a' });
    await addConnection(stack, b.orgId, { kind: 'zendesk', subdomain: 'acme-b', token: 'zd-token-b' });

    await eventually(async () => (await ticketCount(stack, a.key)) === 12, 60_000, "a's tickets");
    await eventually(async () => (await ticketCount(stack, b.key)) === 5, 60_000, "b's tickets");
    const { items } = await itemsOf(stack, b.key, 'zendesk');
    expect(items.every((item) => item.email?.endsWith('@acme-b.example'))).toBe(true);
    expect(items.find((item) => item.externalId === '3')).toMatchObject({
      source: 'zendesk',
      title: 'Ticket 3 of acme-b',
      content: 'The export of report 3 fails for acme-b.',
      author: 'Requester 1003',
      email: 'r1003@acme-b.example',
      metadata: { url: 'https://acme-b.zendesk.com/agent/tickets/3', status: 'open', channel: 'email' },
    });
    // The counter itself is the inbox worker's (counted per item made); here: the pull's items are counted.
    await eventually(async () => (await listIntegrations(stack, a.key))[0]?.itemsReceived > 0, 60_000, 'the count');
    expect(zendesk.requestsOf('acme-b').every((request) => request.authorization === 'Bearer zd-token-b')).toBe(true);
  });

  test('when HubSpot is connected, then its companies and contacts are written through the accounts and contacts services, and a re-sync updates them', async () => {
    const { orgId } = await stack.createKey();
    const token = 'pat-na1-test';
    hubspot.portal(token);
    const at = new Date(Date.now() - DAY);
    hubspot.put(
      token,
      'companies',
      '10',
      { name: 'Initech', domain: 'initech.example', website: 'https://initech.example' },
      at,
    );
    hubspot.put(
      token,
      'contacts',
      '20',
      {
        firstname: 'Peter',
        lastname: 'Gibbons',
        email: 'peter@initech.example',
        company: 'Initech',
        jobtitle: 'Engineer',
      },
      at,
    );
    hubspot.put(token, 'contacts', '21', { firstname: 'No', lastname: 'Email' }, at);
    await addConnection(stack, orgId, { kind: 'hubspot', token });

    const contactsDb = await stack.connect('contacts');
    const accountsDb = await stack.connect('accounts');
    await eventually(
      async () => (await contactsDb.collection('contacts').countDocuments({ orgId })) === 1,
      60_000,
      'the contact',
    );
    await eventually(
      async () => (await accountsDb.collection('accounts').countDocuments({ orgId })) === 1,
      60_000,
      'the account',
    );
    expect(await accountsDb.collection('accounts').findOne({ orgId })).toMatchObject({
      name: 'Initech',
      domain: 'initech.example',
    });
    expect(await contactsDb.collection('contacts').findOne({ orgId })).toMatchObject({
      name: 'Peter Gibbons',
      email: 'peter@initech.example',
      company: 'Initech',
      title: 'Engineer',
    });

    // Promoted in HubSpot: the next sync (the connection is due again at once) updates the same contact.
    hubspot.put(token, 'contacts', '20', { jobtitle: 'Manager' }, new Date());
    await eventually(
      async () => (await contactsDb.collection('contacts').findOne({ orgId }))?.title === 'Manager',
      60_000,
      'the update',
    );
    expect(await contactsDb.collection('contacts').countDocuments({ orgId })).toBe(1);
  });
});

describe('a pull across a kill -9 of the integrations worker', () => {
  let zendesk: ZendeskServer;
  let stack: Stack;
  const integrationsDb = ownDatabaseName('pullkill');
  beforeAll(async () => {
    zendesk = await ZendeskServer.start();
    // The stack's own worker does not pull (PULL_POLL_MS 0, the test stacks' default): the worker
    // process below does, and is killed.
    stack = await startStack({}, { databases: { integrations: integrationsDb } });
  });
  afterAll(async () => {
    await stack.close();
    await zendesk.close();
  });

  const spawnWorker = async (): Promise<Spawned> => {
    const port = await freePort();
    const worker = spawnEntry('services/integrations/src/worker.ts', {
      MONGODB_URI: stack.mongodbUri,
      MONGODB_DB: integrationsDb,
      PORT: String(port),
      INTEGRATIONS_SECRET_KEY: process.env.INTEGRATIONS_SECRET_KEY,
      IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
      FEEDBACK_URL: `${stack.subgraphs.feedback.url}/graphql`,
      CONTACTS_URL: `${stack.subgraphs.contacts.url}/graphql`,
      ACCOUNTS_URL: `${stack.subgraphs.accounts.url}/graphql`,
      ZENDESK_BASE_URL: zendesk.baseUrl,
      PULL_POLL_MS: '100',
      PULL_LEASE_MS: '2000',
      ZENDESK_PAGE_SIZE: '20',
      INTEGRATIONS_INBOX_POLL_MS: '100',
      INTEGRATIONS_INBOX_LEASE_MS: '2000',
    });
    await untilReady(`http://127.0.0.1:${port}`, 'the integrations worker').catch((error: Error) => {
      worker.child.kill('SIGKILL');
      throw new Error(`${error.message}: ${worker.output()}`);
    });
    return worker;
  };

  test('when the worker is killed with SIGKILL while it pulls, then the next one resumes from the saved cursor: every ticket is one item', async () => {
    const { key, orgId } = await stack.createKey();
    zendesk.account('killed', 'zd-token-k');
    const tickets = zendesk.addTickets('killed', 50, new Date(Date.now() - 2 * DAY));
    await addConnection(stack, orgId, { kind: 'zendesk', subdomain: 'killed', token: 'zd-token-k' });
    // The first page (20 tickets) is answered, the second is held: the worker is killed waiting for it,
    // with the first page's tickets in the inbox, some of them being made into items.
    zendesk.holdAfter(1);
    let worker = await spawnWorker();
    try {
      await eventually(() => zendesk.holding === 1, 120_000, 'the second page to be asked for');
      await eventually(async () => (await ticketCount(stack, key)) > 0, 120_000, 'the first items');
      worker.child.kill('SIGKILL');
      await worker.exited;
      zendesk.answerHeld();
      const before = zendesk.requestsOf('killed').length;
      worker = await spawnWorker();
      await eventually(async () => (await ticketCount(stack, key)) >= tickets.length, 300_000, 'every ticket');
      const resumed = zendesk.requestsOf('killed').slice(before);
      // Not from the backfill's start again: from the cursor saved after the first page.
      expect(resumed[0].query.cursor).toBeDefined();
      expect(resumed[0].query.start_time).toBeUndefined();
      expect(resumed).toHaveLength(2); // the second page and the third, the last
      expect(await ticketCount(stack, key)).toBe(tickets.length);
      const [listed] = await listIntegrations(stack, key);
      expect(listed).toMatchObject({ status: 'active', lastError: null });
    } finally {
      worker.child.kill('SIGKILL');
      zendesk.answerHeld();
    }
  }, 600_000);
});
