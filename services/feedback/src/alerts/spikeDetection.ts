import type { AlertRules } from './alertRules';
import { poissonRateTest, shareTest } from './alertStatistics';
import type { Alert, AlertKind, Signal } from './data/alertModel';

/** Days of the baseline a day is compared with. */
export const BASELINE_DAYS = 28;

/** A new suggested theme is one the computation found this recently. */
export const NEW_THEME_MS = 86_400_000;

/** One theme's items in the three windows a pass reads. */
export interface ThemeWindows {
  id: string;
  label: string;
  /** A suggestion found within NEW_THEME_MS (its spike is a new_theme alert, not a theme_spike). */
  isNew: boolean;
  /** Items of the organization's day so far. */
  today: number;
  /** Items of the last 24 hours (an alert opened yesterday evening holds past midnight on them). */
  last24h: number;
  /** Items of the BASELINE_DAYS days before today. */
  baseline: number;
}

/** Items and negative items of one window. */
export interface SentimentWindow {
  total: number;
  negative: number;
}

export interface NegativeWindows {
  today: SentimentWindow;
  last24h: SentimentWindow;
  baseline: SentimentWindow;
}

export const subjectKey = (alert: Pick<Alert | Signal, 'kind' | 'subject'>) => `${alert.kind}:${alert.subject}`;

/** Whether a count against its baseline is a spike by the rules: large (ratio, items) and significant (p < `alpha`). */
function themeTest(count: number, baseline: number, rules: AlertRules, alpha: number) {
  const test = poissonRateTest(count, baseline, BASELINE_DAYS);
  return { ...test, spike: count >= rules.minItems && test.ratio >= rules.minRatio && test.p < alpha };
}

/**
 * The negative share's spike: the share rose by minShareRise (large), the share is significant against the
 * baseline share (binomial), and so is the count of negative items against their daily rate (the share of a
 * few items early in the day swings: the count only grows, so looking every minute does not add false alerts).
 */
function negativeTest(window: SentimentWindow, baseline: SentimentWindow, rules: AlertRules, alpha: number) {
  const share = shareTest(window.negative, window.total, baseline.negative, baseline.total);
  const count = poissonRateTest(window.negative, baseline.negative, BASELINE_DAYS);
  const p = Math.max(share.p, count.p);
  return {
    ...share,
    p,
    spike: window.negative >= rules.minItems && p < alpha && share.share - share.baseline >= rules.minShareRise,
  };
}

/**
 * What one pass finds: a signal per theme (a spike of a theme that had a baseline, or a new suggestion that
 * reached its size) and one for the negative share. `fires` opens an alert; `holds` keeps one open (today's
 * day or the last 24 hours still a spike), so an alert does not close at midnight while its spike goes on.
 */
export function signalsOf(rules: AlertRules, themes: ThemeWindows[], negative: NegativeWindows): Signal[] {
  const muted = new Set(rules.mutedThemeIds);
  const tested = themes.filter((theme) => !muted.has(theme.id));
  // maxP holds for the organization's day, not each of its subjects: with 20 themes tested at 0.01 each, a
  // steady organization would see a false alert every few days (Bonferroni over the subjects tested).
  const alpha = rules.maxP / (tested.filter((theme) => !theme.isNew).length + 1);
  const signals: Signal[] = [];
  for (const theme of tested) {
    const common = { subject: theme.id, themeId: theme.id, label: theme.label, count: theme.today, total: theme.today };
    if (theme.isNew) {
      const fires = theme.today >= rules.newThemeMinItems;
      signals.push({
        ...common,
        kind: 'new_theme',
        baseline: 0,
        p: 0,
        fires,
        holds: fires || theme.last24h >= rules.newThemeMinItems,
      });
      continue;
    }
    const today = themeTest(theme.today, theme.baseline, rules, alpha);
    const day = themeTest(theme.last24h, theme.baseline, rules, alpha);
    signals.push({
      ...common,
      kind: 'theme_spike',
      baseline: today.baseline,
      p: today.p,
      fires: today.spike,
      holds: today.spike || day.spike,
    });
  }
  const today = negativeTest(negative.today, negative.baseline, rules, alpha);
  const day = negativeTest(negative.last24h, negative.baseline, rules, alpha);
  signals.push({
    kind: 'negative_share',
    subject: 'negative',
    themeId: null,
    label: 'Negative feedback',
    count: negative.today.negative,
    total: negative.today.total,
    baseline: today.baseline,
    p: today.p,
    fires: today.spike,
    holds: today.spike || day.spike,
  });
  return signals;
}

/** What a pass does with its signals. */
export interface Decisions {
  open: Signal[];
  /** Open alerts whose spike grew (a higher count). */
  grow: Array<{ alert: Alert; signal: Signal }>;
  close: Alert[];
}

/**
 * One alert per spike: a firing signal opens an alert unless its subject has one open (which grows with it)
 * or had one close within the cooldown; an open alert whose signal no longer holds closes. Alerts of kinds
 * this pass did not look at (`kinds`) are left as they are.
 */
export function decide(
  signals: Signal[],
  active: Alert[],
  closedAt: Map<string, Date>,
  rules: AlertRules,
  kinds: readonly AlertKind[],
  now: Date,
): Decisions {
  const bySubject = new Map(signals.map((signal) => [subjectKey(signal), signal]));
  const activeBySubject = new Map(active.map((alert) => [subjectKey(alert), alert]));
  const decisions: Decisions = { open: [], grow: [], close: [] };
  for (const signal of signals) {
    if (!signal.fires || activeBySubject.has(subjectKey(signal))) continue;
    const closed = closedAt.get(subjectKey(signal));
    if (closed && now.getTime() - closed.getTime() < rules.cooldownHours * 3_600_000) continue;
    decisions.open.push(signal);
  }
  for (const alert of active) {
    if (!kinds.includes(alert.kind)) continue;
    const signal = bySubject.get(subjectKey(alert));
    if (!signal?.holds) decisions.close.push(alert);
    else if (signal.count > alert.count) decisions.grow.push({ alert, signal });
  }
  return decisions;
}
