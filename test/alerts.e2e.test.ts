import { AlertStore, feedbackImporter, type FeedbackRecord, type Signal } from '@fi/feedback';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { ADD_ENDPOINT, FAST_WEBHOOKS } from './helpers/webhookQueries';

const DAY_MS = 86_400_000;
const CREATE_THEME = `mutation($k: String!, $input: FeedbackThemeInput!) { createFeedbackTheme(apiKey: $k, input: $input) { id } }`;
const THEMES = `query($k: String!) { feedbackThemes(apiKey: $k, take: 100) { computedAt items { id label count } } }`;
const ALERT_FIELDS = `id kind status label count total baseline p openedAt closedAt acknowledgedAt theme { id label } examples(take: 2) { id title }`;
const ALERTS = `query($k: String!, $status: String) { feedbackAlerts(apiKey: $k, status: $status, take: 100) { ${ALERT_FIELDS} } }`;
const ACKNOWLEDGE = `mutation($k: String!, $id: String!) { acknowledgeFeedbackAlert(apiKey: $k, id: $id) { ${ALERT_FIELDS} } }`;

interface AlertOut {
  id: string;
  kind: string;
  status: string;
  label: string;
  count: number;
  total: number;
  baseline: number;
  p: number;
  closedAt: string | null;
  theme: { id: string; label: string } | null;
  examples: Array<{ id: string; title: string }>;
}

const NOISE: Array<[string, string]> = [
  ['Gantt colours', 'Could the Gantt chart use the project colour?'],
  ['Calendar sync', 'The calendar sync with Outlook works well.'],
  ['Mobile app', 'The mobile app opens the project list quickly.'],
  ['Search filters', 'Saved search filters would help our team.'],
];
const BILLING: Array<[string, string]> = [
  ['Invoice VAT', 'Our invoice lacks the VAT number.'],
  ['Invoice address', 'The invoice shows our old billing address.'],
  ['Invoice copy', 'Where do I download a copy of the invoice?'],
];

/**
 * The detector's clock: noon of the day before yesterday (UTC), moving with real time, plus `shift`. A fixed
 * day keeps the test away from midnight, and lets the test move to later days without waiting.
 */
const anchor = Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS + 12 * 3_600_000;
const started = Date.now();
let shift = 0;
const clock = () => new Date(anchor + (Date.now() - started) + shift);

const record = ([title, content]: [string, string], at: number, n: number): FeedbackRecord => ({
  source: 'api',
  title,
  content: `${content} (${n})`,
  sentiment: 'neutral',
  status: 'unread',
  publishedDate: new Date(at),
  createdAt: new Date(at),
});

/**
 * 28 days of history before the clock's day: each day 1 or 2 billing items (1.5 a day) and the four noise
 * items, then the clock's day so far: `billingToday` billing items and the four noise items.
 */
function history(billingToday: number): FeedbackRecord[] {
  const dayStart = Math.floor(anchor / DAY_MS) * DAY_MS;
  const records: FeedbackRecord[] = [];
  for (let day = 1; day <= 28; day += 1) {
    const start = dayStart - day * DAY_MS;
    for (let i = 0; i < 1 + (day % 2); i += 1) records.push(record(BILLING[i % 3], start + 3_600_000 * (9 + i), day));
    NOISE.forEach((text, i) => records.push(record(text, start + 3_600_000 * (10 + i), day)));
  }
  for (let i = 0; i < billingToday; i += 1) records.push(record(BILLING[i % 3], anchor - 60_000 * (i + 1), 100 + i));
  NOISE.forEach((text, i) => records.push(record(text, anchor - 3_600_000 * (i + 1), 100)));
  return records;
}

let stack: Stack;
let receiver: WebhookReceiver;
let importFeedback: Awaited<ReturnType<typeof feedbackImporter>>;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  stack = await startStack(
    { ...FAST_WEBHOOKS, THEMES_INTERVAL_MS: '200', ALERTS_INTERVAL_MS: '300' },
    { databases: { feedback: ownDatabaseName('alerts') }, clock },
  );
  importFeedback = await feedbackImporter(await stack.connect('feedback'), () => undefined);
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

async function ok<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await stack.gql<T>(query, variables);
  expect(response.body.errors).toBeUndefined();
  return response.body.data!;
}

const alertsOf = async (k: string, status?: string) =>
  (await ok<{ feedbackAlerts: AlertOut[] }>(ALERTS, { k, status })).feedbackAlerts;

/** An organization with the curated theme Billing (items that say "invoice") and its history imported. */
async function organization(billingToday: number) {
  const { key, orgId } = await stack.createKey();
  const theme = (
    await ok<{ createFeedbackTheme: { id: string } }>(CREATE_THEME, {
      k: key,
      input: { label: 'Billing', keywords: ['invoice'] },
    })
  ).createFeedbackTheme;
  // Subscribed before any alert can open.
  await ok(ADD_ENDPOINT, { k: key, url: receiver.url, events: ['alert.triggered', 'alert.resolved'] });
  await importFeedback(orgId, history(billingToday));
  // Themed: every billing item of the 28 days and of today counted in the curated theme.
  await eventually(
    async () => {
      const themes = (await ok<{ feedbackThemes: { items: Array<{ id: string; count: number }> } }>(THEMES, { k: key }))
        .feedbackThemes.items;
      return themes.find((t) => t.id === theme.id)?.count === 42 + billingToday;
    },
    60_000,
    'the history themed',
  );
  return { key, orgId, themeId: theme.id };
}

describe('alerts', () => {
  let spiking: { key: string; orgId: string; themeId: string };
  let steady: { key: string; orgId: string; themeId: string };
  beforeAll(async () => {
    spiking = await organization(12);
    steady = await organization(2);
  });

  test('when a curated theme spikes against its 28-day history, then exactly one alert names it, delivered by webhook; a steady organization gets none', async () => {
    await eventually(async () => (await alertsOf(spiking.key)).length > 0, 60_000, 'an alert');
    const [alert] = await alertsOf(spiking.key);
    expect(alert).toMatchObject({ kind: 'theme_spike', status: 'open', label: 'Billing', count: 12, closedAt: null });
    expect(alert.theme).toEqual({ id: spiking.themeId, label: 'Billing' });
    expect(alert.baseline).toBeCloseTo(42 / 28, 5);
    expect(alert.p).toBeLessThan(0.01);
    expect(alert.examples).toHaveLength(2);
    expect(alert.examples[0].title).toMatch(/^Invoice/);

    await eventually(() => receiver.ofType('alert.triggered').length > 0, 30_000, 'the webhook');
    const delivered = receiver.ofType('alert.triggered')[0].json.data as unknown as {
      alert: { id: string; theme: { label: string }; count: number };
    };
    expect(delivered.alert).toMatchObject({ id: alert.id, theme: { label: 'Billing' }, count: 12 });

    // The spike grows: the same alert grows with it (passes ran since it opened, over both organizations).
    const now = clock().getTime();
    await importFeedback(
      spiking.orgId,
      [0, 1, 2].map((i) => record(BILLING[i], now - 1_000 * (i + 1), 200 + i)),
    );
    await eventually(async () => (await alertsOf(spiking.key))[0]?.count === 15, 60_000, 'the alert to grow');
    await importFeedback(spiking.orgId, [record(BILLING[0], clock().getTime() - 1_000, 300)]);
    await eventually(async () => (await alertsOf(spiking.key))[0]?.count === 16, 60_000, 'the alert to grow again');

    const alerts = await alertsOf(spiking.key);
    expect(alerts.map((a) => a.id)).toEqual([alert.id]);
    expect(receiver.ofType('alert.triggered')).toHaveLength(1);
    expect(await alertsOf(steady.key)).toEqual([]);
  });

  test('when another organization asks for the alert, then it is not found there; acknowledged, it leaves the open list', async () => {
    const [alert] = await alertsOf(spiking.key);
    const foreign = await stack.gql(ACKNOWLEDGE, { k: steady.key, id: alert.id });
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const bad = await stack.gql(ALERTS, { k: spiking.key, status: 'later' });
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'status' });

    const acknowledged = (
      await ok<{ acknowledgeFeedbackAlert: AlertOut }>(ACKNOWLEDGE, { k: spiking.key, id: alert.id })
    ).acknowledgeFeedbackAlert;
    expect(acknowledged.status).toBe('acknowledged');
    expect(await alertsOf(spiking.key, 'open')).toEqual([]);
    expect((await alertsOf(spiking.key, 'acknowledged')).map((a) => a.id)).toEqual([alert.id]);
  });

  test('when the spike has passed (two days later), then the alert closes once and alert.resolved is delivered', async () => {
    const [alert] = await alertsOf(spiking.key);
    shift = 2 * DAY_MS;
    await eventually(async () => (await alertsOf(spiking.key, 'closed')).length === 1, 60_000, 'the alert to close');
    const [closed] = await alertsOf(spiking.key, 'closed');
    expect(closed).toMatchObject({ id: alert.id, status: 'closed' });
    await eventually(() => receiver.ofType('alert.resolved').length > 0, 30_000, 'the resolved webhook');
    expect((receiver.ofType('alert.resolved')[0].json.data as unknown as { alert: { id: string } }).alert.id).toBe(
      alert.id,
    );
    expect(await alertsOf(spiking.key)).toHaveLength(1);
  });
});

describe('alerts under simultaneous instances', () => {
  const signal: Signal = {
    kind: 'theme_spike',
    subject: 'th_same',
    themeId: 'th_same',
    label: 'Same',
    count: 9,
    total: 9,
    baseline: 1,
    p: 0.001,
    fires: true,
    holds: true,
  };

  test('when ten instances open the same spike at once, then one alert exists; when ten claim one organization, one holds it', async () => {
    const store = new AlertStore(await stack.connect('feedback'));
    const now = new Date();
    const opened = await Promise.all(
      Array.from({ length: 10 }, () => store.open('org_simultaneous', signal, '2026-01-02', [], now)),
    );
    expect(opened.filter((alert) => alert !== null)).toHaveLength(1);
    expect(await store.list('org_simultaneous', undefined, 100)).toHaveLength(1);

    const holders = await Promise.all(Array.from({ length: 10 }, () => store.claim('org_simultaneous', now, 60_000)));
    expect(holders.filter((holder) => holder !== null)).toHaveLength(1);
  });
});
