import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BASELINE_DAYS,
  decide,
  DEFAULT_RULES,
  feedbackImporter,
  signalsOf,
  type Alert,
  type FeedbackRecord,
} from '@fi/feedback';
import { startStack } from '../test/helpers/stack';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A seeded generator (mulberry32): the same streams each run, so two runs of the bench compare. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A Poisson draw (Knuth's product of uniforms; the rates here are at most 60). */
function poisson(rate: number, next: () => number): number {
  const limit = Math.exp(-rate);
  let k = 0;
  for (let p = next(); p > limit; p *= next()) k += 1;
  return k;
}

/** Themes of a simulated organization: items a day, from rare to busy (a spread like the demo's). */
const THEME_RATES = [0.2, 0.3, 0.5, 0.5, 1, 1, 1.5, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30];
/** Share of an organization's items that are negative. */
const NEGATIVE_SHARE = 0.25;
const SIMULATED_ORGS = 300;
/** Days of each organization-month after the 28 days of baseline. */
const MONTH_DAYS = 30;
/** Passes a simulated day (every two hours: today's count only grows, so passes between them change nothing but the delay). */
const PASSES_A_DAY = 12;

/**
 * False alerts on steady streams: each organization's themes and negative share are steady Poisson streams
 * (items at uniform times of day), run through the detector's own signalsOf() and decide() every two hours for
 * 28 days of baseline and then an organization-month; every alert opened is a false one.
 */
export function falseAlertRate(orgs = SIMULATED_ORGS) {
  const byKind = new Map<string, number>();
  let opened = 0;
  for (let org = 0; org < orgs; org += 1) {
    const next = random(1_000 + org);
    const days = BASELINE_DAYS + MONTH_DAYS + 1;
    // Item times per theme and day, and the negative items among all.
    const themeTimes = THEME_RATES.map((rate) =>
      Array.from({ length: days }, () => Array.from({ length: poisson(rate, next) }, () => next() * DAY_MS)),
    );
    const negativeOf = themeTimes.map((theme) => theme.map((times) => times.map(() => next() < NEGATIVE_SHARE)));
    const active: Alert[] = [];
    const closed = new Map<string, Date>();
    for (let d = BASELINE_DAYS; d < days; d += 1) {
      for (let pass = 1; pass <= PASSES_A_DAY; pass += 1) {
        const at = (pass / PASSES_A_DAY) * DAY_MS;
        const now = new Date(d * DAY_MS + at);
        const upTo = (times: number[]) => times.filter((time) => time <= at).length;
        const since = (times: number[]) => times.filter((time) => time > at).length;
        const themes = THEME_RATES.map((_, t) => {
          let baseline = 0;
          for (let b = d - BASELINE_DAYS; b < d; b += 1) baseline += themeTimes[t][b].length;
          return {
            id: `th_${t}`,
            label: `Theme ${t}`,
            isNew: false,
            today: upTo(themeTimes[t][d]),
            last24h: upTo(themeTimes[t][d]) + since(themeTimes[t][d - 1]),
            baseline,
          };
        });
        const window = (day: number, filter: (time: number) => boolean) => {
          let total = 0;
          let negative = 0;
          themeTimes.forEach((theme, t) =>
            theme[day].forEach((time, i) => {
              if (!filter(time)) return;
              total += 1;
              if (negativeOf[t][day][i]) negative += 1;
            }),
          );
          return { total, negative };
        };
        const today = window(d, (time) => time <= at);
        const yesterday = window(d - 1, (time) => time > at);
        const baseline = { total: 0, negative: 0 };
        for (let b = d - BASELINE_DAYS; b < d; b += 1) {
          const day = window(b, () => true);
          baseline.total += day.total;
          baseline.negative += day.negative;
        }
        const signals = signalsOf(DEFAULT_RULES, themes, {
          today,
          last24h: { total: today.total + yesterday.total, negative: today.negative + yesterday.negative },
          baseline,
        });
        const decisions = decide(signals, active, closed, DEFAULT_RULES, ['theme_spike', 'negative_share'], now);
        for (const signal of decisions.open) {
          opened += 1;
          byKind.set(signal.kind, (byKind.get(signal.kind) ?? 0) + 1);
          active.push({
            ...signal,
            id: `a${opened}`,
            orgId: 'sim',
            window: String(d),
            status: 'open',
            openedAt: now,
            updatedAt: now,
            acknowledgedAt: null,
            closedAt: null,
            exampleIds: [],
          });
        }
        for (const alert of decisions.close) {
          active.splice(active.indexOf(alert), 1);
          closed.set(`${alert.kind}:${alert.subject}`, now);
        }
      }
    }
  }
  return { orgs, opened, perOrgMonth: opened / orgs, byKind: Object.fromEntries(byKind) };
}

const CREATE_THEME = `mutation($k: String!, $input: FeedbackThemeInput!) { createFeedbackTheme(apiKey: $k, input: $input) { id } }`;
const ALERTS = `query($k: String!) { feedbackAlerts(apiKey: $k, take: 10) { id kind label openedAt count } }`;
const THEMES = `query($k: String!) { feedbackThemes(apiKey: $k, take: 100) { items { id count } } }`;
/** Items a day of the theme that spikes, before its spike. */
const SPIKE_BASELINE_RATE = 4;
const SPIKES = 3;

const record = (title: string, content: string, at: number): FeedbackRecord => ({
  source: 'api',
  title,
  content,
  sentiment: 'neutral',
  status: 'unread',
  publishedDate: new Date(at),
  createdAt: new Date(at),
});

/**
 * The delay to detect a 3x spike, end to end on a real stack with the production intervals (themes every
 * 20 s, alerts every 60 s): an organization with 28 days of a theme at SPIKE_BASELINE_RATE a day, then, at
 * once, three times a day's items of it (the spike's items are in); the time until the alert opens, in
 * alert intervals. Repeated SPIKES times at different phases of the detector's interval.
 */
export async function detectionDelay(uri: string, redisUrl: string, say: (line: string) => void) {
  const intervalMs = 60_000;
  const stack = await startStack(
    {
      MONGODB_URI: uri,
      REDIS_URL: redisUrl,
      THEMES_INTERVAL_MS: '20000',
      ALERTS_INTERVAL_MS: String(intervalMs),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      IDENTITY_SIGNING_KEYS: `bench:${randomBytes(32).toString('base64url')}`,
    },
    { databases: { feedback: `bench_alerts_${Date.now()}` } },
  );
  const delays: number[] = [];
  try {
    const importFeedback = await feedbackImporter(await stack.connect('feedback'), () => undefined);
    for (let spike = 0; spike < SPIKES; spike += 1) {
      const { key, orgId } = await stack.createKey();
      const ok = async <T>(query: string, variables: Record<string, unknown>) =>
        (await stack.gql<T>(query, variables)).body.data!;
      const theme = (
        await ok<{ createFeedbackTheme: { id: string } }>(CREATE_THEME, {
          k: key,
          input: { label: 'Checkout', keywords: ['checkout'] },
        })
      ).createFeedbackTheme;
      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const history: FeedbackRecord[] = [];
      for (let day = 1; day <= BASELINE_DAYS; day += 1)
        for (let i = 0; i < SPIKE_BASELINE_RATE; i += 1)
          history.push(
            record('Checkout', `The checkout page failed (${day}.${i}).`, today - day * DAY_MS + i * HOUR_MS),
          );
      await importFeedback(orgId, history);
      const themed = async (count: number) => {
        for (;;) {
          const items = (
            await ok<{ feedbackThemes: { items: Array<{ id: string; count: number }> } }>(THEMES, { k: key })
          ).feedbackThemes.items;
          if (items.find((t) => t.id === theme.id)?.count === count) return;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      };
      await themed(history.length);
      // A different phase of the detector's interval for each spike.
      await new Promise((resolve) => setTimeout(resolve, (spike * intervalMs) / SPIKES));
      const spikeItems = Array.from({ length: 3 * SPIKE_BASELINE_RATE }, (_, i) =>
        record('Checkout', `The checkout page failed again (${i}).`, Date.now() - 1_000 * (i + 1)),
      );
      await importFeedback(orgId, spikeItems);
      const inAt = Date.now();
      for (;;) {
        const [alert] = (await ok<{ feedbackAlerts: Array<{ openedAt: string }> }>(ALERTS, { k: key })).feedbackAlerts;
        if (alert) {
          const delay = (Date.parse(alert.openedAt) - inAt) / intervalMs;
          delays.push(delay);
          say(
            `  spike ${spike + 1}: alert ${((Date.parse(alert.openedAt) - inAt) / 1000).toFixed(1)} s after its items were in (${delay.toFixed(2)} intervals)`,
          );
          break;
        }
        if (Date.now() - inAt > 5 * intervalMs) {
          delays.push(Infinity);
          say(`  spike ${spike + 1}: no alert within 5 intervals`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await stack.close();
  }
  return { intervalMs, delays, worst: Math.max(...delays) };
}

/** `npm run bench -- --alerts`: false alerts per organization-month on steady streams, and the delay to detect a 3x spike. */
export async function runAlertsBench(uri: string, redisUrl: string, say: (line: string) => void) {
  say(
    `Alerts: ${SIMULATED_ORGS} simulated organizations, ${THEME_RATES.length} steady themes each, a month after a 28-day baseline`,
  );
  const started = Date.now();
  const rate = falseAlertRate();
  say(
    `  false alerts: ${rate.opened} in ${rate.orgs} organization-months = ${rate.perOrgMonth.toFixed(3)} per organization-month (target <= 1) ${JSON.stringify(rate.byKind)} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  say('Alerts: the delay to detect a 3x spike on a real stack (themes every 20 s, alerts every 60 s)');
  const delay = await detectionDelay(uri, redisUrl, say);
  say(`  worst: ${delay.worst.toFixed(2)} intervals (target <= 2)`);
  const results = { at: new Date().toISOString(), falseAlerts: rate, detection: delay };
  writeFileSync(path.join(__dirname, 'results', 'alerts.json'), `${JSON.stringify(results, null, 2)}\n`);
  return results;
}
