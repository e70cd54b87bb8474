import { AlertStore, feedbackImporter, type Signal } from '@fi/feedback';
import { MemberService, OPERATOR, openRepositories } from '@fi/identity';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { AdminBrowser } from './helpers/adminBrowser';
import { addConnection, listIntegrations, post } from './helpers/integrations';
import { eventually } from './helpers/processes';
import { decodedText, SmtpReceiver } from './helpers/smtpReceiver';
import { alertClock, BILLING, DAY_MS, history, HISTORY_BILLING, record } from './helpers/alertHistory';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';
import { WebhookReceiver } from './helpers/webhookReceiver';
import { ADD_ENDPOINT, FAST_WEBHOOKS } from './helpers/webhookQueries';

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

const clock = alertClock();

let stack: Stack;
let receiver: WebhookReceiver;
let slack: WebhookReceiver;
let smtp: SmtpReceiver;
let members: MemberService;
let importFeedback: Awaited<ReturnType<typeof feedbackImporter>>;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  slack = await WebhookReceiver.start('/services/T000/B000/slack');
  smtp = await SmtpReceiver.start();
  stack = await startStack(
    {
      ...FAST_WEBHOOKS,
      THEMES_INTERVAL_MS: '200',
      ALERTS_INTERVAL_MS: '300',
      DIGEST_INTERVAL_MS: '300',
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://app.example.test',
    },
    { databases: { feedback: ownDatabaseName('alerts') }, clock: clock.now },
  );
  importFeedback = await feedbackImporter(await stack.connect('feedback'), () => undefined);
  members = new MemberService(await openRepositories(await stack.connect('identity')));
});
afterAll(async () => {
  await stack.close();
  await Promise.all([receiver.close(), slack.close(), smtp.close()]);
});

const SET_RULES = `mutation($input: FeedbackAlertRulesInput!) { setFeedbackAlertRules(input: $input) { slackUrlHint minRatio timeZone } }`;
const OPT_IN = `mutation { setMailOptIns(alertEmails: true, digestEmails: true) { alertEmails digestEmails } }`;

/** The organization's owner, signed in to the web application, who set Slack and opted in to alert emails. */
async function owner(orgId: string) {
  const email = `owner-${orgId}@example.com`;
  const password = 'correct horse battery staple';
  await members.add(OPERATOR, orgId, { email, name: 'Owner', role: 'owner', password });
  const browser = new AdminBrowser(`${stack.gateway.url}/admin/graphql`);
  await browser.signIn(email, password);
  const rules = await browser.gql<{ setFeedbackAlertRules: { slackUrlHint: string } }>(SET_RULES, {
    input: { slackUrl: slack.url },
  });
  expect(rules.errors).toBeUndefined();
  expect(rules.data!.setFeedbackAlertRules.slackUrlHint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/services\/T0…$/);
  expect((await browser.gql(OPT_IN)).data).toEqual({ setMailOptIns: { alertEmails: true, digestEmails: true } });
  return { email, browser };
}

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
  const { email } = await owner(orgId);
  const theme = (
    await ok<{ createFeedbackTheme: { id: string } }>(CREATE_THEME, {
      k: key,
      input: { label: 'Billing', keywords: ['invoice'] },
    })
  ).createFeedbackTheme;
  // Subscribed before any alert can open.
  await ok(ADD_ENDPOINT, { k: key, url: receiver.url, events: ['alert.triggered', 'alert.resolved'] });
  await importFeedback(orgId, history(clock.anchor, billingToday));
  // Themed: every billing item of the 28 days and of today counted in the curated theme.
  await eventually(
    async () => {
      const themes = (await ok<{ feedbackThemes: { items: Array<{ id: string; count: number }> } }>(THEMES, { k: key }))
        .feedbackThemes.items;
      return themes.find((t) => t.id === theme.id)?.count === HISTORY_BILLING + billingToday;
    },
    60_000,
    'the history themed',
  );
  return { key, orgId, themeId: theme.id, email };
}

let spiking: Awaited<ReturnType<typeof organization>>;
let steady: Awaited<ReturnType<typeof organization>>;
beforeAll(async () => {
  spiking = await organization(12);
  steady = await organization(2);
});

describe('alerts', () => {
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
    const now = clock.now().getTime();
    await importFeedback(
      spiking.orgId,
      [0, 1, 2].map((i) => record(BILLING[i], now - 1_000 * (i + 1), 200 + i)),
    );
    await eventually(async () => (await alertsOf(spiking.key))[0]?.count === 15, 60_000, 'the alert to grow');
    await importFeedback(spiking.orgId, [record(BILLING[0], clock.now().getTime() - 1_000, 300)]);
    await eventually(async () => (await alertsOf(spiking.key))[0]?.count === 16, 60_000, 'the alert to grow again');

    const alerts = await alertsOf(spiking.key);
    expect(alerts.map((a) => a.id)).toEqual([alert.id]);
    expect(receiver.ofType('alert.triggered')).toHaveLength(1);
    expect(await alertsOf(steady.key)).toEqual([]);
  });

  test('when the alert opens, then Slack gets one Block Kit message with the counts, two quotes and the link, and the opted-in owner one email', async () => {
    await eventually(() => slack.received.length > 0, 30_000, 'the Slack message');
    const message = slack.received[0].json as unknown as {
      text: string;
      blocks: Array<{ type: string; text?: { text: string }; elements?: Array<{ url?: string }> }>;
    };
    expect(message.text).toMatch(/^Alert: Billing: 12 items about "Billing" today, against 1\.5 a day/);
    const quotes = message.blocks.filter((block) => block.text?.text.startsWith('> '));
    expect(quotes).toHaveLength(2);
    expect(quotes[0].text!.text).toMatch(/invoice/i);
    const button = message.blocks.find((block) => block.type === 'actions')!.elements![0];
    expect(button.url).toBe(`http://app.example.test/feedback?theme=${spiking.themeId}`);

    const alertMails = (email: string) =>
      smtp.mails.filter((mail) => mail.to.includes(email) && /Subject: \[Feedback\] Alert/.test(mail.raw));
    await eventually(() => alertMails(spiking.email).length > 0, 30_000, 'the alert email');
    const mails = alertMails(spiking.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].raw).toMatch(/Subject: \[Feedback\] Alert: Billing/);
    expect(mails[0].raw).toMatch(/text\/plain/);
    expect(mails[0].raw).toMatch(/text\/html/);
    // The steady organization's owner opted in too, and got no alert.
    expect(alertMails(steady.email)).toEqual([]);
    expect(slack.received).toHaveLength(1);
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
    clock.shift(2 * DAY_MS);
    await eventually(async () => (await alertsOf(spiking.key, 'closed')).length === 1, 60_000, 'the alert to close');
    const [closed] = await alertsOf(spiking.key, 'closed');
    expect(closed).toMatchObject({ id: alert.id, status: 'closed' });
    await eventually(() => receiver.ofType('alert.resolved').length > 0, 30_000, 'the resolved webhook');
    expect((receiver.ofType('alert.resolved')[0].json.data as unknown as { alert: { id: string } }).alert.id).toBe(
      alert.id,
    );
    expect(await alertsOf(spiking.key)).toHaveLength(1);
    await eventually(() => slack.received.length === 2, 30_000, 'the resolved Slack message');
    expect((slack.received[1].json as unknown as { text: string }).text).toMatch(/^Resolved: Billing/);
  });
});

describe('the weekly digest', () => {
  test('when members opted in, then each organization gets one digest of last week with its volume, sentiment, top themes and quotes, in text and HTML', async () => {
    const digests = (email: string) =>
      smtp.mails.filter((mail) => mail.to.includes(email) && /Subject: \[Feedback\] Weekly digest/.test(mail.raw));
    await eventually(
      () => digests(spiking.email).length > 0 && digests(steady.email).length > 0,
      60_000,
      'both digests',
    );
    for (const email of [spiking.email, steady.email]) {
      const subjects = digests(email).map((mail) => /Subject: (.*)/.exec(mail.raw)![1]);
      expect(new Set(subjects).size).toBe(subjects.length);
    }
    const text = decodedText(digests(spiking.email)[0]);
    expect(text).toMatch(/text\/plain/);
    expect(text).toMatch(/text\/html/);
    expect(text).toMatch(/Volume: \d+ items/);
    expect(text).toMatch(/Sentiment: 0% negative/);
    expect(text).toMatch(/Top themes\n- Billing: \d+ items/);
    expect(text).toMatch(/ {2}> Invoice/);
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

describe('a connected platform gone silent', () => {
  test('when a platform that sends 4 or more items a day sent nothing for 48 hours, then a platform_silent alert names it', async () => {
    const { key, orgId } = await stack.createKey();
    // "Usually sends" from 4 items a day: the platform's items are made one by one, at their own pace.
    const { browser } = await owner(orgId);
    expect((await browser.gql(SET_RULES, { input: { minItems: 4 } })).errors).toBeUndefined();
    const hook = await addConnection(stack, orgId, { kind: 'webhook', name: 'Support portal' });
    for (let i = 0; i < 12; i += 1) {
      const body = JSON.stringify({ title: `Request ${i}`, content: `Question number ${i} about our account.` });
      const id = `msg_${randomUUID()}`;
      const at = new Date();
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(hook.secret!).sign(id, at, body),
      };
      expect((await post(hook.hookUrl!, body, headers)).status).toBe(200);
    }
    // Every item made before the clock moves: at 9 of 12 the usual rate (4.5 a day) is not yet significant
    // (P(a silent day) = e^-4.5 > 0.01), and an event the feedback service answered late is retried after a back-off.
    await eventually(
      async () => (await listIntegrations(stack, key))[0]?.itemsReceived === 12,
      120_000,
      'the 12 items made',
    );
    // Two days on for the detector: the connection is two days old (4 or more a day) and silent for two days.
    clock.moveTo(Date.now() + 2 * DAY_MS + 60_000);
    const silent = async () => (await alertsOf(key)).find((alert) => alert.kind === 'platform_silent');
    await eventually(async () => (await silent()) !== undefined, 60_000, 'the silent platform alert');
    expect(await silent()).toMatchObject({ label: 'Support portal (webhook)', status: 'open', count: 0, theme: null });
    expect((await silent())!.baseline).toBeGreaterThanOrEqual(4);
    // 12 items over a connection two days old: at most 6 a day.
    expect((await silent())!.baseline).toBeLessThanOrEqual(6.01);
  }, 300_000);
});
