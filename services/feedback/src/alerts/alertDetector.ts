import { runPasses, type Logger, type WakeableWorker } from '@fi/shared';
import type { AlertStore } from './data/alertStore';
import type { Alert, AlertKind, Signal } from './data/alertModel';
import type { AlertRules } from './alertRules';
import type { AlertSources } from './alertSources';
import { BASELINE_DAYS, decide, NEW_THEME_MS, signalsOf, type ThemeWindows } from './spikeDetection';
import { orgDay } from './orgDay';

const DAY_MS = 86_400_000;

/** An instance looking at an organization holds it this long at most (a pass takes well under a second). */
const CLAIM_MS = 5 * 60_000;

/** Examples kept with an alert. */
export const EXAMPLES = 5;

/**
 * Platforms that went quiet: signals of kind `platform_silent` (subject: the connection) for the connected
 * platforms that sent nothing for 24 hours while they usually send (see silentPlatforms.ts: the
 * integrations service tells how each sends).
 */
export interface SilentPlatforms {
  signals(orgId: string, now: Date): Promise<Signal[]>;
}

export interface DetectorDeps {
  store: AlertStore;
  sources: AlertSources;
  /** Sends what an organization's alerts have left to send (see alertDelivery.ts). */
  deliver(orgId: string, rules: AlertRules, now: Date): Promise<void>;
  silentPlatforms?: SilentPlatforms;
  /** The time a pass takes as now: tests move it instead of waiting for days. */
  clock: () => Date;
}

export interface PassResult {
  /** False when the organization's theme figures were being counted: nothing was decided. */
  looked: boolean;
  opened: Alert[];
  grown: number;
  closed: number;
}

/**
 * One organization's pass: today's items (in its time zone) per theme and its negative share against
 * the BASELINE_DAYS days before today, then alerts opened, grown and closed by decide(), then delivery.
 * The caller holds the organization's claim.
 */
export async function detectOrganization(deps: DetectorDeps, orgId: string, now: Date): Promise<PassResult> {
  const { store, sources } = deps;
  const { rules } = await store.rules(orgId);
  if (!(await sources.settled(orgId))) return { looked: false, opened: [], grown: 0, closed: 0 };
  const day = orgDay(rules.timeZone, now);
  const today = { from: day.start, to: now };
  const baseline = { from: new Date(day.start.getTime() - BASELINE_DAYS * DAY_MS), to: day.start };
  const last24h = { from: new Date(now.getTime() - DAY_MS), to: now };
  const [[todayCounts, baselineCounts, dayCounts], [todaySentiment, baselineSentiment, daySentiment], fresh] =
    await Promise.all([
      sources.themeCounts(orgId, [today, baseline, last24h]),
      sources.sentiment(orgId, [today, baseline, last24h]),
      sources.newSuggestions(orgId, new Date(now.getTime() - NEW_THEME_MS), now),
    ]);
  // Themes with items today or in the last 24 hours: the others can neither fire nor hold.
  const ids = [...new Set([...todayCounts.keys(), ...dayCounts.keys()])];
  const labels = await sources.labels(orgId, ids);
  const themes: ThemeWindows[] = ids
    .filter((id) => labels.has(id))
    .map((id) => ({
      id,
      label: labels.get(id)!,
      isNew: fresh.has(id),
      today: todayCounts.get(id) ?? 0,
      last24h: dayCounts.get(id) ?? 0,
      baseline: baselineCounts.get(id) ?? 0,
    }));
  const signals = signalsOf(rules, themes, {
    today: todaySentiment,
    last24h: daySentiment,
    baseline: baselineSentiment,
  });
  const kinds: AlertKind[] = ['theme_spike', 'new_theme', 'negative_share'];
  if (deps.silentPlatforms) {
    // The integrations service unreachable: this pass leaves platforms (and their open alerts) as they are,
    // and still looks at the themes.
    const platforms = await deps.silentPlatforms.signals(orgId, now).catch(() => null);
    if (platforms) {
      signals.push(...platforms);
      kinds.push('platform_silent');
    }
  }
  const [active, closed] = await Promise.all([
    store.active(orgId),
    store.closedSince(orgId, new Date(now.getTime() - rules.cooldownHours * 3_600_000)),
  ]);
  const decisions = decide(signals, active, closed, rules, kinds, now);
  const examplesOf = (signal: Signal) =>
    store.examples(
      orgId,
      signal.themeId ? { themeId: signal.themeId } : { sentiment: 'negative' },
      signal.kind === 'theme_spike' || signal.kind === 'negative_share' ? day.start : last24h.from,
      now,
      EXAMPLES,
    );
  const opened: Alert[] = [];
  for (const signal of decisions.open) {
    const alert = await store.open(orgId, signal, day.key, await examplesOf(signal), now);
    if (alert) opened.push(alert);
  }
  for (const { alert, signal } of decisions.grow) await store.grow(alert.id, signal, await examplesOf(signal), now);
  for (const alert of decisions.close) await store.close(alert.id, now);
  await deps.deliver(orgId, rules, now);
  return { looked: true, opened, grown: decisions.grow.length, closed: decisions.close.length };
}

/**
 * Every `intervalMs`, each organization's pass by whichever instance claims it first (a claim is an insert:
 * atomic on the embedded engine too). With the default interval an alert opens within a minute of the items
 * that make it being themed.
 */
export function startAlertDetector(deps: DetectorDeps, intervalMs: number, logger: Logger): WakeableWorker {
  const pass = async (closed: () => boolean) => {
    for (const orgId of await deps.sources.organizations()) {
      if (closed()) return;
      const now = deps.clock();
      const holder = await deps.store.claim(orgId, now, CLAIM_MS);
      if (!holder) continue;
      try {
        const result = await detectOrganization(deps, orgId, now);
        for (const alert of result.opened)
          logger.info({ orgId, alertId: alert.id, kind: alert.kind, subject: alert.subject }, 'feedback alert opened');
        if (result.closed > 0) logger.info({ orgId, closed: result.closed }, 'feedback alerts closed');
      } catch (error) {
        logger.warn({ err: error, orgId }, 'feedback alert detection failed for an organization');
      } finally {
        await deps.store.release(orgId, holder);
      }
    }
  };
  return runPasses(intervalMs, pass, (error) => logger.warn({ err: error }, 'feedback alert detection failed'));
}
