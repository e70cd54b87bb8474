import type { FeedbackItem } from '../core';
import type { Alert } from './data/alertModel';
import type { AlertEventType } from './alertEvents';

/** Quotes are cut to this many characters: a message shows what people say, not whole tickets. */
const QUOTE_CHARS = 280;

const quote = (item: FeedbackItem) => {
  const text = `${item.title}: ${item.content}`.replace(/\s+/g, ' ').trim();
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS - 1)}…` : text;
};

/** Where a person reads more: the theme's items in the web application, or its alerts. */
export const alertLink = (publicUrl: string, alert: Alert) =>
  alert.themeId
    ? `${publicUrl.replace(/\/+$/, '')}/feedback?theme=${encodeURIComponent(alert.themeId)}`
    : `${publicUrl.replace(/\/+$/, '')}/alerts`;

const round = (n: number) => (n >= 10 ? Math.round(n).toString() : n.toFixed(1));

/** The alert in one sentence: what, how much, against what (`day`: "today", or the day it opened on). */
export function alertSummary(alert: Alert, day = 'today'): string {
  switch (alert.kind) {
    case 'theme_spike':
      return `${alert.count} items about "${alert.label}" ${day}, against ${round(alert.baseline)} a day over the last 28 days (${alert.baseline > 0 ? `${round(alert.count / alert.baseline)}x` : 'none before'}).`;
    case 'new_theme':
      return `A new theme, "${alert.label}", with ${alert.count} items ${day}.`;
    case 'negative_share':
      return `${alert.count} of ${alert.total} items ${day} are negative (${Math.round((alert.count / Math.max(alert.total, 1)) * 100)}%), against ${Math.round(alert.baseline * 100)}% over the last 28 days.`;
    case 'platform_silent':
      return `${alert.label} sent nothing for 24 hours; it usually sends ${round(alert.baseline)} a day.`;
  }
}

const title = (alert: Alert, type: AlertEventType) =>
  type === 'alert.resolved' ? `Resolved: ${alert.label}` : `Alert: ${alert.label}`;

/** A Slack incoming-webhook message in Block Kit: the theme, the counts against the baseline, two quotes, a link. */
export function slackMessage(alert: Alert, type: AlertEventType, examples: FeedbackItem[], publicUrl: string) {
  const link = alertLink(publicUrl, alert);
  const heading = title(alert, type);
  const summary =
    type === 'alert.resolved'
      ? `Back to normal. At its peak: ${alertSummary(alert, `on ${alert.window}`)}`
      : alertSummary(alert);
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    text: `${heading}: ${summary}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: heading.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: escape(summary) } },
      ...(type === 'alert.triggered'
        ? examples
            .slice(0, 2)
            .map((item) => ({ type: 'section', text: { type: 'mrkdwn', text: `> ${escape(quote(item))}` } }))
        : []),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: alert.themeId ? 'Open the theme' : 'Open alerts' },
            url: link,
          },
        ],
      },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: `p = ${alert.p.toExponential(1)} · opened ${alert.openedAt.toISOString()}` },
        ],
      },
    ],
  };
}

const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The email of an alert: a text part and an HTML part saying the same. */
export function alertMail(alert: Alert, type: AlertEventType, examples: FeedbackItem[], publicUrl: string) {
  const link = alertLink(publicUrl, alert);
  const heading = title(alert, type);
  const summary =
    type === 'alert.resolved'
      ? `Back to normal. At its peak: ${alertSummary(alert, `on ${alert.window}`)}`
      : alertSummary(alert);
  const quotes = type === 'alert.triggered' ? examples.slice(0, 2).map(quote) : [];
  const text = [
    heading,
    '',
    summary,
    '',
    ...quotes.map((q) => `> ${q}`),
    ...(quotes.length ? [''] : []),
    link,
    '',
  ].join('\n');
  const body = `<h2>${html(heading)}</h2><p>${html(summary)}</p>${quotes
    .map((q) => `<blockquote>${html(q)}</blockquote>`)
    .join('')}<p><a href="${html(link)}">${alert.themeId ? 'Open the theme' : 'Open alerts'}</a></p>`;
  return { subject: `[Feedback] ${heading}`, text, html: `<!doctype html><html><body>${body}</body></html>` };
}
