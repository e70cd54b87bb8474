import type { Principal, Role } from '@fi/shared';
import { Webhook } from 'standardwebhooks';
import { memberPrincipal, serviceAdmin } from './helpers/admin';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { WebhookReceiver, type Received } from './helpers/webhookReceiver';
import { FAST_WEBHOOKS } from './helpers/webhookQueries';

/**
 * Keeping a webhook endpoint working: a test event, a redelivery, re-enabling a disabled endpoint and
 * rotating its secret, through the admin schema (as the gateway calls it for a signed-in member) and the
 * public API (with a key). Receivers listen on loopback.
 */

/** Long enough for the first delivery after a rotation to fall inside it on a loaded machine, short enough to wait out. */
const OVERLAP_MS = 10_000;

let stack: Stack;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  stack = await startStack(
    { ...FAST_WEBHOOKS, WEBHOOK_SECRET_OVERLAP_MS: String(OVERLAP_MS) },
    { databases: { feedback: ownDatabaseName('webhook-operations') } },
  );
});
afterAll(async () => {
  await stack.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function newReceiver(): Promise<WebhookReceiver> {
  const receiver = await WebhookReceiver.start();
  receivers.push(receiver);
  return receiver;
}

interface Endpoint {
  id: string;
  secret: string | null;
  enabled: boolean;
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
}
interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: Array<{ statusCode: number | null }>;
}

const ENDPOINT = 'id secret enabled disabledReason previousSecretExpiresAt';
const DELIVERY = 'id eventId eventType status attempts { statusCode }';
const OPS = {
  add: `mutation($url: String!) { addWebhookEndpoint(url: $url, events: ["feedback.created"]) { ${ENDPOINT} } }`,
  list: `{ webhookEndpoints { ${ENDPOINT} } }`,
  deliveries: `query($endpointId: String!) { webhookDeliveries(endpointId: $endpointId) { total items { ${DELIVERY} } } }`,
  sendTest: `mutation($endpointId: String!) { sendWebhookTestEvent(endpointId: $endpointId) { ${DELIVERY} } }`,
  redeliver: `mutation($id: String!) { redeliverWebhookDelivery(id: $id) { ${DELIVERY} } }`,
  enable: `mutation($id: String!) { enableWebhookEndpoint(id: $id) { ${ENDPOINT} } }`,
  rotate: `mutation($id: String!) { rotateWebhookSecret(id: $id) { ${ENDPOINT} } }`,
};
const PUBLIC = {
  add: `mutation($k: String!, $url: String!) { addWebhookEndpoint(apiKey: $k, url: $url, events: ["feedback.created"]) { ${ENDPOINT} } }`,
  sendTest: `mutation($k: String!, $id: String!) { sendWebhookTestEvent(apiKey: $k, endpointId: $id) { ${DELIVERY} } }`,
  rotate: `mutation($k: String!, $id: String!) { rotateWebhookSecret(apiKey: $k, id: $id) { ${ENDPOINT} } }`,
};

const as =
  (principal: Principal) =>
  <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    serviceAdmin<T>(stack.subgraphs.feedback.url, [principal], query, variables);

/** A fresh organization and a way to call the admin schema as a member of each role. */
async function organization() {
  const { key, orgId } = await stack.createKey();
  return { key, orgId, member: (role: Role) => as(memberPrincipal(orgId, role)) };
}

async function addEndpoint(org: Awaited<ReturnType<typeof organization>>, url: string): Promise<Endpoint> {
  const added = await org.member('admin')<{ addWebhookEndpoint: Endpoint }>(OPS.add, { url });
  expect(added.errors).toBeUndefined();
  return added.data!.addWebhookEndpoint;
}

async function deliveriesOf(org: Awaited<ReturnType<typeof organization>>, endpointId: string): Promise<Delivery[]> {
  const answer = await org.member('viewer')<{ webhookDeliveries: { items: Delivery[] } }>(OPS.deliveries, {
    endpointId,
  });
  expect(answer.errors).toBeUndefined();
  return answer.data!.webhookDeliveries.items;
}

/** Throws unless `received` verifies with `secret`, as a receiver's Standard Webhooks library checks it. */
const verify = (secret: string, received: Received) => new Webhook(secret).verify(received.body, received.headers);
const signaturesOf = (received: Received) => received.headers['webhook-signature'].split(' ');

const refusal = (message: string) => [
  expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
];

describe('test events', () => {
  test('when a member sends a test event, then the receiver gets a signed webhook.test and the deliveries list it; a viewer is refused; a stranger finds nothing', async () => {
    const org = await organization();
    const receiver = await newReceiver();
    const endpoint = await addEndpoint(org, receiver.url);

    const viewer = await org.member('viewer')(OPS.sendTest, { endpointId: endpoint.id });
    expect(viewer.errors).toEqual(
      refusal('Only owners, admins and members can send test events or redeliver webhook deliveries'),
    );
    const sent = await org.member('member')<{ sendWebhookTestEvent: Delivery }>(OPS.sendTest, {
      endpointId: endpoint.id,
    });
    expect(sent.errors).toBeUndefined();
    const delivery = sent.data!.sendWebhookTestEvent;
    expect(delivery).toMatchObject({
      eventType: 'webhook.test',
      status: 'pending',
      eventId: expect.stringMatching(/^evt_test_/),
    });

    await eventually(() => receiver.ofType('webhook.test').length === 1, 20_000, 'the test event received');
    const [received] = receiver.ofType('webhook.test');
    expect(received.headers['webhook-id']).toBe(delivery.eventId);
    expect(() => verify(endpoint.secret!, received)).not.toThrow();
    expect(received.json.data).toMatchObject({ endpointId: endpoint.id });
    await eventually(
      async () => (await deliveriesOf(org, endpoint.id)).some((d) => d.id === delivery.id && d.status === 'delivered'),
      20_000,
      'the test delivery recorded',
    );

    const stranger = await organization();
    expect((await stranger.member('owner')(OPS.sendTest, { endpointId: endpoint.id })).errors?.[0]).toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await stranger.member('owner')(OPS.redeliver, { id: delivery.id })).errors?.[0]).toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
  });
});

describe('redelivery', () => {
  test('when a delivered event is redelivered, then the same event id arrives again and the delivery lists both attempts; a pending one is refused', async () => {
    const org = await organization();
    const receiver = await newReceiver();
    const endpoint = await addEndpoint(org, receiver.url);
    // The receiver holds the first attempt, so the delivery is still pending when it is redelivered.
    receiver.answer(['hang', 'hang', 'hang']);
    const delivery = (
      await org.member('member')<{ sendWebhookTestEvent: Delivery }>(OPS.sendTest, { endpointId: endpoint.id })
    ).data!.sendWebhookTestEvent;
    const pending = await org.member('member')(OPS.redeliver, { id: delivery.id });
    expect(pending.errors?.[0]).toMatchObject({
      message: 'The delivery is still pending: it is sent again by its own retries',
      extensions: { code: 'BAD_REQUEST' },
    });
    await eventually(
      async () => (await deliveriesOf(org, endpoint.id)).some((d) => d.id === delivery.id && d.status === 'delivered'),
      20_000,
      'the delivery retried and delivered',
    );
    const firstAttempts = (await deliveriesOf(org, endpoint.id)).find((d) => d.id === delivery.id)!.attempts.length;

    const redelivered = await org.member('member')<{ redeliverWebhookDelivery: Delivery }>(OPS.redeliver, {
      id: delivery.id,
    });
    expect(redelivered.errors).toBeUndefined();
    expect(redelivered.data!.redeliverWebhookDelivery).toMatchObject({
      id: delivery.id,
      eventId: delivery.eventId,
      status: 'pending',
    });
    await eventually(
      async () => {
        const listed = (await deliveriesOf(org, endpoint.id)).find((d) => d.id === delivery.id)!;
        return listed.status === 'delivered' && listed.attempts.length === firstAttempts + 1;
      },
      20_000,
      'the redelivery recorded as one more attempt',
    );
    const copies = receiver.received.filter((r) => r.headers['webhook-id'] === delivery.eventId);
    expect(copies.at(-1)!.body).toBe(copies[0].body);
    for (const copy of copies) expect(() => verify(endpoint.secret!, copy)).not.toThrow();
    expect((await deliveriesOf(org, endpoint.id)).filter((d) => d.eventId === delivery.eventId)).toHaveLength(1);
  });
});

describe('re-enabling', () => {
  test('when an endpoint is disabled after its retries ran out, then owners and admins re-enable it and it receives again; test events wait for that', async () => {
    const org = await organization();
    const receiver = await newReceiver();
    receiver.answer([], 500);
    const endpoint = await addEndpoint(org, receiver.url);
    const failing = (
      await org.member('admin')<{ sendWebhookTestEvent: Delivery }>(OPS.sendTest, { endpointId: endpoint.id })
    ).data!.sendWebhookTestEvent;
    let disabled: Endpoint | undefined;
    await eventually(
      async () => {
        disabled = (await org.member('viewer')<{ webhookEndpoints: Endpoint[] }>(OPS.list)).data!.webhookEndpoints[0];
        return !disabled.enabled;
      },
      30_000,
      'the endpoint disabled after the retry window',
    );
    expect(disabled!.disabledReason).toMatch(/Re-enable the endpoint to resume\.$/);
    expect((await org.member('admin')(OPS.sendTest, { endpointId: endpoint.id })).errors?.[0]).toMatchObject({
      message: 'The endpoint is disabled: re-enable it first',
      extensions: { code: 'BAD_REQUEST' },
    });
    expect((await org.member('member')(OPS.enable, { id: endpoint.id })).errors).toEqual(
      refusal('Only owners and admins can re-enable webhook endpoints or rotate their secrets'),
    );

    receiver.answer([], 200);
    const enabled = await org.member('admin')<{ enableWebhookEndpoint: Endpoint }>(OPS.enable, { id: endpoint.id });
    expect(enabled.data?.enableWebhookEndpoint).toMatchObject({ enabled: true, disabledReason: null });
    expect((await org.member('admin')(OPS.enable, { id: endpoint.id })).errors?.[0]).toMatchObject({
      message: 'The endpoint is enabled already',
    });

    // The event that failed while the endpoint gave up is sent again on request.
    expect((await org.member('member')(OPS.redeliver, { id: failing.id })).errors).toBeUndefined();
    await eventually(
      async () => (await deliveriesOf(org, endpoint.id)).some((d) => d.id === failing.id && d.status === 'delivered'),
      20_000,
      'the failed event redelivered',
    );
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(failing.eventId);
  });
});

describe('secret rotation', () => {
  test('when the secret is rotated, then deliveries carry both signatures during the overlap and only the new one after it', async () => {
    const org = await organization();
    const receiver = await newReceiver();
    const endpoint = await addEndpoint(org, receiver.url);
    expect((await org.member('member')(OPS.rotate, { id: endpoint.id })).errors).toEqual(
      refusal('Only owners and admins can re-enable webhook endpoints or rotate their secrets'),
    );

    const rotated = (await org.member('owner')<{ rotateWebhookSecret: Endpoint }>(OPS.rotate, { id: endpoint.id }))
      .data!.rotateWebhookSecret;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    const overlapEnds = Date.parse(rotated.previousSecretExpiresAt!);
    const listed = (await org.member('viewer')<{ webhookEndpoints: Endpoint[] }>(OPS.list)).data!.webhookEndpoints[0];
    expect(listed).toMatchObject({ secret: null, previousSecretExpiresAt: rotated.previousSecretExpiresAt });

    const during = (
      await org.member('member')<{ sendWebhookTestEvent: Delivery }>(OPS.sendTest, { endpointId: endpoint.id })
    ).data!.sendWebhookTestEvent;
    await eventually(
      () => receiver.received.some((r) => r.headers['webhook-id'] === during.eventId),
      20_000,
      'the test event during the overlap',
    );
    const first = receiver.received.find((r) => r.headers['webhook-id'] === during.eventId)!;
    // Signed at webhook-timestamp (seconds): it must be inside the overlap for this check to mean anything.
    expect(Number(first.headers['webhook-timestamp']) * 1000).toBeLessThan(overlapEnds);
    expect(signaturesOf(first)).toHaveLength(2);
    expect(() => verify(rotated.secret!, first)).not.toThrow();
    expect(() => verify(endpoint.secret!, first)).not.toThrow();

    await eventually(() => Date.now() > overlapEnds, OVERLAP_MS + 5_000, 'the overlap to end');
    const after = (
      await org.member('member')<{ sendWebhookTestEvent: Delivery }>(OPS.sendTest, { endpointId: endpoint.id })
    ).data!.sendWebhookTestEvent;
    await eventually(
      () => receiver.received.some((r) => r.headers['webhook-id'] === after.eventId),
      20_000,
      'the test event after the overlap',
    );
    const second = receiver.received.find((r) => r.headers['webhook-id'] === after.eventId)!;
    expect(signaturesOf(second)).toHaveLength(1);
    expect(() => verify(rotated.secret!, second)).not.toThrow();
    expect(() => verify(endpoint.secret!, second)).toThrow();
    expect(
      (await org.member('viewer')<{ webhookEndpoints: Endpoint[] }>(OPS.list)).data!.webhookEndpoints[0]
        .previousSecretExpiresAt,
    ).toBeNull();
  });
});

describe('the public API', () => {
  test('when a key sends a test event or rotates the secret, then a writer key may and a read-only key is refused', async () => {
    const { key, orgId } = await stack.createKey();
    const readOnly = (await stack.createKey({ orgId, readOnly: true })).key;
    const receiver = await newReceiver();
    const endpoint = (await stack.gql<{ addWebhookEndpoint: Endpoint }>(PUBLIC.add, { k: key, url: receiver.url })).body
      .data!.addWebhookEndpoint;

    for (const query of [PUBLIC.sendTest, PUBLIC.rotate]) {
      expect((await stack.gql(query, { k: readOnly, id: endpoint.id })).body.errors?.[0]).toMatchObject({
        extensions: { code: 'FORBIDDEN' },
      });
    }
    const rotated = (await stack.gql<{ rotateWebhookSecret: Endpoint }>(PUBLIC.rotate, { k: key, id: endpoint.id }))
      .body.data!.rotateWebhookSecret;
    const sent = (await stack.gql<{ sendWebhookTestEvent: Delivery }>(PUBLIC.sendTest, { k: key, id: endpoint.id }))
      .body.data!.sendWebhookTestEvent;
    await eventually(
      () => receiver.received.some((r) => r.headers['webhook-id'] === sent.eventId),
      20_000,
      'the test event',
    );
    expect(() =>
      verify(
        rotated.secret!,
        receiver.received.find((r) => r.headers['webhook-id'] === sent.eventId)!,
      ),
    ).not.toThrow();
  });
});
