import type { Principal, Role } from '@fi/shared';
import { ADMIN, memberPrincipal, serviceAdmin } from './helpers/admin';
import { eventually } from './helpers/processes';
import { ADD_FEEDBACK, GET_FEEDBACK } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { FAST_WEBHOOKS } from './helpers/webhookQueries';

/**
 * The feedback service's admin schema, called as the gateway calls it (a signed identity of the signed-in
 * member): the inbox's reads and status changes, insights and themes, with roles and organizations.
 */
let stack: Stack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // Webhooks to a receiver on loopback, quickly; a feedback database of its own, so no other test file's
  // stack (another target policy) takes these deliveries.
  stack = await startStack(FAST_WEBHOOKS, { databases: { feedback: ownDatabaseName('feedback-admin') } });
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

interface Item {
  id: string;
  title: string;
  status: string;
  sentiment: string | null;
  source: string;
  email: string | null;
}

const asMember =
  (principal: Principal) =>
  <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    serviceAdmin<T>(stack.subgraphs.feedback.url, [principal], query, variables);

/** A fresh organization with its key and a few items added through the public API. */
async function organizationWith(
  items: Array<{ title: string; content?: string; sentiment?: string; source?: string; email?: string }>,
) {
  const { key, orgId } = await stack.createKey();
  const added: Item[] = [];
  for (const item of items) {
    const answer = await stack.gql<{ addFeedbackItem: Item }>(ADD_FEEDBACK, {
      apiKey: key,
      input: {
        source: item.source ?? 'api',
        title: item.title,
        content: item.content ?? item.title,
        sentiment: item.sentiment,
        email: item.email,
      },
    });
    expect(answer.body.errors).toBeUndefined();
    added.push(answer.body.data!.addFeedbackItem);
  }
  return { key, orgId, items: added };
}

describe('who may do what', () => {
  test.each(['owner', 'admin', 'member'] as Role[])(
    'when the member is %s and changes statuses, then the service changes them and the public API reads them',
    async (role) => {
      const { key, orgId, items } = await organizationWith([{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
      const member = asMember(memberPrincipal(orgId, role));
      const one = await member<{ changeFeedbackStatus: Item }>(ADMIN.changeFeedbackStatus, {
        id: items[0].id,
        status: 'read',
      });
      expect(one.errors).toBeUndefined();
      expect(one.data!.changeFeedbackStatus).toMatchObject({ id: items[0].id, status: 'read' });
      // Setting the current status changes nothing: only the two others count.
      const many = await member(ADMIN.changeFeedbackStatuses, { ids: items.map((item) => item.id), status: 'read' });
      expect(many).toEqual({ data: { changeFeedbackStatuses: 2 } });
      for (const item of items) {
        const read = await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: key, id: item.id });
        expect(read.body.data?.feedbackItem.status).toBe('read');
      }
    },
  );

  test('when a viewer changes a status, then the service refuses it, changes nothing, and lets the viewer read', async () => {
    const { key, orgId, items } = await organizationWith([{ title: 'Keep me unread' }]);
    const viewer = asMember(memberPrincipal(orgId, 'viewer'));
    const refusal = expect.objectContaining({
      message: 'Only owners, admins and members can change feedback',
      extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
    });
    expect((await viewer(ADMIN.changeFeedbackStatus, { id: items[0].id, status: 'archived' })).errors).toEqual([
      refusal,
    ]);
    expect((await viewer(ADMIN.changeFeedbackStatuses, { ids: [items[0].id], status: 'archived' })).errors).toEqual([
      refusal,
    ]);
    expect(
      (await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: key, id: items[0].id })).body.data?.feedbackItem
        .status,
    ).toBe('unread');
    const listed = await viewer<{ feedbackItems: { total: number; items: Item[] } }>(ADMIN.feedbackItems);
    expect(listed.data?.feedbackItems.items.map((item) => item.title)).toEqual(['Keep me unread']);
  });

  test('when the caller is an API key, nobody, or not signed by the gateway, then the admin schema asks for a sign-in', async () => {
    const { orgId } = await stack.createKey();
    const key: Principal = { ...memberPrincipal(orgId, 'owner'), kind: 'key' };
    for (const principals of [[key], [], null]) {
      const answer = await serviceAdmin(stack.subgraphs.feedback.url, principals, ADMIN.feedbackItems);
      expect(answer.errors?.[0]).toMatchObject({ message: 'Sign in first', extensions: { code: 'UNAUTHENTICATED' } });
      expect(answer.data ?? null).toBeNull();
    }
  });
});

describe('organizations', () => {
  test('when a member of another organization reads or changes an item by its id, then it is not found and the item stays as it was', async () => {
    const own = await organizationWith([{ title: 'Private' }]);
    const other = await stack.createKey();
    const stranger = asMember(memberPrincipal(other.orgId, 'owner'));
    const id = own.items[0].id;
    expect((await stranger(ADMIN.feedbackItem, { id })).errors?.[0]).toMatchObject({
      message: 'Feedback not found',
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await stranger(ADMIN.changeFeedbackStatus, { id, status: 'archived' })).errors?.[0]).toMatchObject({
      message: 'Feedback not found',
      extensions: { code: 'FORBIDDEN' },
    });
    // One id of another organization among many: nothing changes, and the error names it.
    const mine = await organizationWith([{ title: 'Mine' }]);
    const mixed = await asMember(memberPrincipal(mine.orgId, 'owner'))(ADMIN.changeFeedbackStatuses, {
      ids: [mine.items[0].id, id],
      status: 'archived',
    });
    expect(mixed.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', ids: [id] } });
    expect(
      (await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: mine.key, id: mine.items[0].id })).body.data
        ?.feedbackItem.status,
    ).toBe('unread');
    expect(
      (await stack.gql<{ feedbackItem: Item }>(GET_FEEDBACK, { apiKey: own.key, id })).body.data?.feedbackItem.status,
    ).toBe('unread');
    expect((await stranger<{ feedbackItems: { total: number } }>(ADMIN.feedbackItems)).data?.feedbackItems.total).toBe(
      0,
    );
  });
});

describe('the inbox', () => {
  test('when the list is filtered and searched, then it answers the matching items; a bad filter is BAD_REQUEST naming it', async () => {
    const { orgId } = await organizationWith([
      { title: 'Export to CSV fails', sentiment: 'negative', source: 'email' },
      { title: 'Love the dark mode', sentiment: 'positive', source: 'api' },
      { title: 'CSV import is great', sentiment: 'positive', source: 'email' },
    ]);
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    const titles = async (variables: Record<string, unknown>) =>
      (await owner<{ feedbackItems: { items: Item[] } }>(ADMIN.feedbackItems, variables)).data?.feedbackItems.items
        .map((item) => item.title)
        .sort();
    expect(await titles({ source: 'email' })).toEqual(['CSV import is great', 'Export to CSV fails']);
    expect(await titles({ sentiment: 'positive', search: 'csv' })).toEqual(['CSV import is great']);
    expect(await titles({ take: 1, skip: 1 })).toHaveLength(1);
    for (const [variables, argument] of [
      [{ status: 'done' }, 'status'],
      [{ sentiment: 'angry' }, 'sentiment'],
      [{ take: 101 }, 'take'],
    ] as const) {
      const answer = await owner(ADMIN.feedbackItems, variables);
      expect(answer.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument } });
    }
    const badStatus = await owner(ADMIN.changeFeedbackStatuses, { ids: [], status: 'read' });
    expect(badStatus.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'ids' } });
  });

  test('when an item is read, then it comes with the items like it', async () => {
    const { orgId, items } = await organizationWith([
      { title: 'CSV export times out', content: 'The CSV export times out for large workspaces' },
      { title: 'CSV export is slow', content: 'Our CSV export times out every time on large workspaces' },
      { title: 'Dark mode please', content: 'Please add a dark mode to the editor' },
    ]);
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    const answer = await owner<{ feedbackItem: Item & { similar: Array<{ item: { id: string } }> } }>(
      ADMIN.feedbackItem,
      { id: items[0].id },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.feedbackItem.similar.map((similar) => similar.item.id)).toEqual([items[1].id]);
  });
});

describe('insights', () => {
  test('when insights are asked for a range, then the figures count the items by sentiment, status and source; a bad interval is BAD_REQUEST', async () => {
    const { orgId, items } = await organizationWith([
      { title: 'Broken export', sentiment: 'negative', source: 'email' },
      { title: 'Great support', sentiment: 'positive', source: 'api' },
    ]);
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    expect((await owner(ADMIN.changeFeedbackStatus, { id: items[0].id, status: 'archived' })).errors).toBeUndefined();
    const to = new Date(Date.now() + 60_000);
    const from = new Date(to.getTime() - 7 * 86_400_000);
    const answer = await owner<{
      feedbackInsights: {
        total: number;
        bySentiment: Record<string, number>;
        byStatus: Record<string, number>;
        bySource: Array<{ source: string; count: number }>;
        series: Array<{ count: number }>;
      };
    }>(ADMIN.feedbackInsights, { from: from.toISOString(), to: to.toISOString(), interval: 'day' });
    expect(answer.errors).toBeUndefined();
    const insights = answer.data!.feedbackInsights;
    expect(insights).toMatchObject({
      total: 2,
      bySentiment: { positive: 1, negative: 1, neutral: 0 },
      byStatus: { unread: 1, archived: 1, read: 0 },
    });
    expect(insights.bySource.map((source) => source.source).sort()).toEqual(['api', 'email']);
    expect(insights.series.reduce((sum, point) => sum + point.count, 0)).toBe(2);
    const bad = await owner(ADMIN.feedbackInsights, {
      from: from.toISOString(),
      to: to.toISOString(),
      interval: 'hour',
    });
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'interval' } });
    const themes = await owner<{ feedbackThemes: { total: number } }>(ADMIN.feedbackThemes, {
      from: from.toISOString(),
      to: to.toISOString(),
    });
    expect(themes.errors).toBeUndefined();
  });
});

describe('webhook endpoints', () => {
  interface Endpoint {
    id: string;
    url: string;
    events: string[];
    secret: string | null;
    enabled: boolean;
  }

  test("when an owner adds an endpoint, then its secret is shown once, a member's status change is delivered to it, and its deliveries list their attempts", async () => {
    const { orgId, items } = await organizationWith([{ title: 'Deliver my change' }]);
    const owner = asMember(memberPrincipal(orgId, 'owner'));
    const added = await owner<{ addWebhookEndpoint: Endpoint }>(ADMIN.addWebhookEndpoint, {
      url: receiver.url,
      events: ['feedback.status_changed'],
    });
    expect(added.errors).toBeUndefined();
    const endpoint = added.data!.addWebhookEndpoint;
    expect(endpoint).toMatchObject({
      url: receiver.url,
      events: ['feedback.status_changed'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = await asMember(memberPrincipal(orgId, 'viewer'))<{ webhookEndpoints: Endpoint[] }>(
      ADMIN.webhookEndpoints,
    );
    expect(listed.data?.webhookEndpoints).toEqual([expect.objectContaining({ id: endpoint.id, secret: null })]);

    expect(
      (
        await asMember(memberPrincipal(orgId, 'member'))(ADMIN.changeFeedbackStatus, {
          id: items[0].id,
          status: 'read',
        })
      ).errors,
    ).toBeUndefined();
    await eventually(
      () => receiver.received.some((request) => request.body.includes(items[0].id)),
      20_000,
      'the status change delivered',
    );
    type Deliveries = {
      webhookDeliveries: {
        total: number;
        items: Array<{ eventType: string; status: string; attempts: Array<{ statusCode: number | null }> }>;
      };
    };
    let deliveries: Deliveries['webhookDeliveries'] | undefined;
    await eventually(
      async () => {
        deliveries = (await owner<Deliveries>(ADMIN.webhookDeliveries, { endpointId: endpoint.id })).data
          ?.webhookDeliveries;
        return deliveries?.items[0]?.status === 'delivered';
      },
      20_000,
      'the delivery recorded',
    );
    expect(deliveries!.items[0]).toMatchObject({
      eventType: 'feedback.status_changed',
      attempts: [expect.objectContaining({ statusCode: 200 })],
    });

    expect((await owner(ADMIN.removeWebhookEndpoint, { id: endpoint.id })).data).toEqual({
      removeWebhookEndpoint: true,
    });
    expect((await owner<{ webhookEndpoints: Endpoint[] }>(ADMIN.webhookEndpoints)).data?.webhookEndpoints).toEqual([]);
  });

  test('when a member or a viewer adds or removes an endpoint, then it is refused; a bad address is BAD_REQUEST naming it; another organization cannot see or remove one', async () => {
    const { orgId } = await stack.createKey();
    const refusal = {
      message: 'Only owners and admins can add or remove webhook endpoints',
      extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
    };
    for (const role of ['member', 'viewer'] as Role[]) {
      const answer = await asMember(memberPrincipal(orgId, role))(ADMIN.addWebhookEndpoint, {
        url: receiver.url,
        events: ['feedback.created'],
      });
      expect(answer.errors).toEqual([expect.objectContaining(refusal)]);
    }
    const admin = asMember(memberPrincipal(orgId, 'admin'));
    expect(
      (await admin(ADMIN.addWebhookEndpoint, { url: 'not a url', events: ['feedback.created'] })).errors?.[0],
    ).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'url' } });
    expect(
      (await admin(ADMIN.addWebhookEndpoint, { url: receiver.url, events: ['feedback.exploded'] })).errors?.[0],
    ).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'events' } });
    const endpoint = (
      await admin<{ addWebhookEndpoint: Endpoint }>(ADMIN.addWebhookEndpoint, {
        url: receiver.url,
        events: ['feedback.created'],
      })
    ).data!.addWebhookEndpoint;
    expect(
      (await asMember(memberPrincipal(orgId, 'member'))(ADMIN.removeWebhookEndpoint, { id: endpoint.id })).errors,
    ).toEqual([expect.objectContaining(refusal)]);

    const stranger = asMember(memberPrincipal((await stack.createKey()).orgId, 'owner'));
    expect((await stranger<{ webhookEndpoints: Endpoint[] }>(ADMIN.webhookEndpoints)).data?.webhookEndpoints).toEqual(
      [],
    );
    expect((await stranger(ADMIN.webhookDeliveries, { endpointId: endpoint.id })).errors?.[0]).toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await stranger(ADMIN.removeWebhookEndpoint, { id: endpoint.id })).errors?.[0]).toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    expect(
      (await admin<{ webhookEndpoints: Endpoint[] }>(ADMIN.webhookEndpoints)).data?.webhookEndpoints.map(
        (listed) => listed.id,
      ),
    ).toEqual([endpoint.id]);
  });
});
