import { runPasses, type Logger, type WakeableWorker } from '@fi/shared';
import type { MailTransport } from '@fi/shared/mail';
import type { FeedbackItem } from '../core';
import type { AlertStore } from './data/alertStore';
import type { Alert } from './data/alertModel';
import type { AlertSources } from './alertSources';
import { alertSummary } from './alertMessages';
import type { MailRecipients } from './alertNotifiers';
import type { ExampleItems } from './alertResolvers';
import { orgDay } from './orgDay';

const DAY_MS = 86_400_000;
const CLAIM_MS = 5 * 60_000;
const TOP_THEMES = 5;
const RISING_THEMES = 3;

export interface WeekFigures {
  total: number;
  negative: number;
}

export interface DigestTheme {
  id: string;
  label: string;
  count: number;
  previous: number;
  quote: string | null;
}

/** What a weekly digest says. */
export interface Digest {
  /** The week's first day (Monday, the organization's time zone). */
  week: string;
  current: WeekFigures;
  previous: WeekFigures;
  top: DigestTheme[];
  rising: DigestTheme[];
  alerts: Alert[];
}

/** The Monday of the organization's week that holds `now`: its key and first instant. */
export function weekOf(zone: string, now: Date): { key: string; start: Date } {
  const day = orgDay(zone, now);
  const weekday = (new Date(`${day.key}T12:00:00Z`).getUTCDay() + 6) % 7;
  const monday = orgDay(zone, new Date(day.start.getTime() - weekday * DAY_MS + DAY_MS / 2));
  return { key: monday.key, start: monday.start };
}

export interface DigestDeps {
  store: AlertStore;
  sources: AlertSources;
  items: ExampleItems;
  transport: MailTransport;
  recipients: MailRecipients;
  publicUrl: string;
  clock: () => Date;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));
const change = (now: number, before: number) =>
  before === 0
    ? now === 0
      ? 'no change'
      : 'new'
    : `${now >= before ? '+' : ''}${Math.round(((now - before) / before) * 100)}%`;

const quoteOf = (item: FeedbackItem | undefined) => {
  if (!item) return null;
  const text = `${item.title}: ${item.content}`.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

/** The digest of the week before `now`'s week, against the week before it; null when both were empty. */
export async function weeklyDigest(deps: DigestDeps, orgId: string, now: Date): Promise<Digest | null> {
  const { rules } = await deps.store.rules(orgId);
  const week = weekOf(rules.timeZone, now);
  const current = { from: new Date(week.start.getTime() - 7 * DAY_MS), to: week.start };
  const previous = { from: new Date(week.start.getTime() - 14 * DAY_MS), to: current.from };
  const [[figures, before], [counts, previousCounts]] = await Promise.all([
    deps.sources.sentiment(orgId, [current, previous]),
    deps.sources.themeCounts(orgId, [current, previous]),
  ]);
  if (figures.total === 0 && before.total === 0) return null;
  const labels = await deps.sources.labels(orgId, [...counts.keys()]);
  const themes = [...counts]
    .filter(([id]) => labels.has(id))
    .map(([id, count]) => ({ id, label: labels.get(id)!, count, previous: previousCounts.get(id) ?? 0 }));
  const top = [...themes].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)).slice(0, TOP_THEMES);
  const rising = themes
    .filter((theme) => theme.count - theme.previous >= 2)
    .sort((a, b) => b.count - b.previous - (a.count - a.previous) || a.label.localeCompare(b.label))
    .slice(0, RISING_THEMES);
  const quoted = new Map<string, string | null>();
  for (const theme of [...top, ...rising]) {
    if (quoted.has(theme.id)) continue;
    const [id] = await deps.store.examples(orgId, { themeId: theme.id }, current.from, current.to, 1);
    quoted.set(theme.id, id ? quoteOf((await deps.items.findAmong(orgId, [id]))[0]) : null);
  }
  const withQuote = (theme: Omit<DigestTheme, 'quote'>) => ({ ...theme, quote: quoted.get(theme.id) ?? null });
  const alerts = [...(await deps.store.list(orgId, 'open', 10)), ...(await deps.store.list(orgId, 'acknowledged', 10))];
  return {
    week: orgDay(rules.timeZone, current.from).key,
    current: figures,
    previous: before,
    top: top.map(withQuote),
    rising: rising.map(withQuote),
    alerts,
  };
}

const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The digest as a mail: a text part and an HTML part saying the same. */
export function digestMail(digest: Digest, publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  const volume = `${digest.current.total} items (${change(digest.current.total, digest.previous.total)} on the week before, ${digest.previous.total})`;
  const sentiment = `${percent(digest.current.negative, digest.current.total)}% negative (the week before: ${percent(digest.previous.negative, digest.previous.total)}%)`;
  const themeLine = (theme: DigestTheme) =>
    `${theme.label}: ${theme.count} items (${change(theme.count, theme.previous)})`;
  const text = [
    `Your feedback, week of ${digest.week}`,
    '',
    `Volume: ${volume}`,
    `Sentiment: ${sentiment}`,
    '',
    'Top themes',
    ...digest.top.flatMap((theme) => [`- ${themeLine(theme)}`, ...(theme.quote ? [`  > ${theme.quote}`] : [])]),
    '',
    'Rising themes',
    ...(digest.rising.length
      ? digest.rising.flatMap((theme) => [`- ${themeLine(theme)}`, ...(theme.quote ? [`  > ${theme.quote}`] : [])])
      : ['- none rose this week']),
    '',
    'Open alerts',
    ...(digest.alerts.length
      ? digest.alerts.map((alert) => `- ${alertSummary(alert, `on ${alert.window}`)}`)
      : ['- none']),
    '',
    `${base}/insights`,
    '',
  ].join('\n');
  const themeItems = (themes: DigestTheme[], empty: string) =>
    themes.length
      ? `<ul>${themes
          .map(
            (theme) =>
              `<li><a href="${html(`${base}/feedback?theme=${encodeURIComponent(theme.id)}`)}">${html(theme.label)}</a>: ${theme.count} items (${html(change(theme.count, theme.previous))})${theme.quote ? `<blockquote>${html(theme.quote)}</blockquote>` : ''}</li>`,
          )
          .join('')}</ul>`
      : `<p>${empty}</p>`;
  const body = [
    `<h2>Your feedback, week of ${html(digest.week)}</h2>`,
    `<p><strong>Volume:</strong> ${html(volume)}<br><strong>Sentiment:</strong> ${html(sentiment)}</p>`,
    '<h3>Top themes</h3>',
    themeItems(digest.top, 'No themed feedback this week.'),
    '<h3>Rising themes</h3>',
    themeItems(digest.rising, 'None rose this week.'),
    '<h3>Open alerts</h3>',
    digest.alerts.length
      ? `<ul>${digest.alerts.map((alert) => `<li>${html(alertSummary(alert, `on ${alert.window}`))}</li>`).join('')}</ul>`
      : '<p>None.</p>',
    `<p><a href="${html(`${base}/insights`)}">Open Insights</a></p>`,
  ].join('');
  return {
    subject: `[Feedback] Weekly digest: week of ${digest.week}`,
    text,
    html: `<!doctype html><html><body>${body}</body></html>`,
  };
}

/**
 * Sends each organization's weekly digest once a week to the members who opted in: the first pass of the
 * organization's week (Monday, its time zone) that finds recipients and something to say takes the week by
 * an insert (once, whichever instance) and mails it.
 */
export async function sendDigest(deps: DigestDeps, orgId: string, now: Date): Promise<number> {
  const { rules } = await deps.store.rules(orgId);
  const week = weekOf(rules.timeZone, now);
  if (await deps.store.digestSent(orgId, week.key)) return 0;
  const recipients = await deps.recipients.of(orgId, 'digest');
  if (recipients.length === 0) return 0;
  // Its themes as of its newest item: an import just before the digest is in its themes.
  if (!(await deps.sources.settled(orgId, true))) return 0;
  const digest = await weeklyDigest(deps, orgId, now);
  if (!digest) return 0;
  if (!(await deps.store.takeDigest(orgId, week.key, recipients.length, now))) return 0;
  const mail = digestMail(digest, deps.publicUrl);
  for (const { email } of recipients) await deps.transport.send({ to: email, ...mail });
  return recipients.length;
}

export function startDigestWorker(deps: DigestDeps, intervalMs: number, logger: Logger): WakeableWorker {
  const pass = async (closed: () => boolean) => {
    for (const orgId of await deps.sources.organizations()) {
      if (closed()) return;
      const now = deps.clock();
      const holder = await deps.store.claim(`digest:${orgId}`, now, CLAIM_MS);
      if (!holder) continue;
      try {
        const sent = await sendDigest(deps, orgId, now);
        if (sent > 0) logger.info({ orgId, recipients: sent }, 'weekly feedback digest sent');
      } catch (error) {
        logger.warn({ err: error, orgId }, 'weekly feedback digest failed for an organization');
      } finally {
        await deps.store.release(`digest:${orgId}`, holder);
      }
    }
  };
  return runPasses(intervalMs, pass, (error) => logger.warn({ err: error }, 'weekly feedback digests failed'));
}
