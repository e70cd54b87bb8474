import type { Signal } from './data/alertModel';
import type { AlertRules } from './alertRules';
import type { SilentPlatforms } from './alertDetector';

const DAY_MS = 86_400_000;

/** A connected platform as the integrations service tells how it sends. */
export interface PlatformActivity {
  id: string;
  kind: string;
  name: string;
  /** active, paused or failing: a paused platform is meant to be quiet. */
  status: string;
  itemsReceived: number;
  lastEventAt: Date | null;
  createdAt: Date;
}

/** A platform is judged on at least this much of its life: a day-old connection has no usual rate yet. */
const MIN_AGE_MS = 2 * DAY_MS;

/**
 * A signal per platform that is not paused and is old enough to have a usual rate: it fires when it sent
 * nothing for 24 hours although it usually sends at least minItems a day (large) and 24 hours of nothing at
 * its rate is unlikely (significant: P(no item in a day) = e^-rate < maxP); it holds while the silence lasts.
 */
export function platformSignals(platforms: PlatformActivity[], rules: AlertRules, now: Date): Signal[] {
  return platforms
    .filter((platform) => platform.status !== 'paused' && now.getTime() - platform.createdAt.getTime() >= MIN_AGE_MS)
    .map((platform) => {
      const rate = platform.itemsReceived / ((now.getTime() - platform.createdAt.getTime()) / DAY_MS);
      const silent = now.getTime() - (platform.lastEventAt ?? platform.createdAt).getTime() >= DAY_MS;
      const p = Math.exp(-rate);
      return {
        kind: 'platform_silent' as const,
        subject: platform.id,
        themeId: null,
        label: `${platform.name} (${platform.kind})`,
        count: 0,
        total: 0,
        baseline: rate,
        p,
        fires: silent && rate >= rules.minItems && p < rules.maxP,
        holds: silent,
      };
    });
}

/** The integrations service's internal route of platform activity (never its database). */
export function integrationsActivity(
  integrationsUrl: string,
  rulesOf: (orgId: string) => Promise<AlertRules>,
  timeoutMs = 5_000,
): SilentPlatforms {
  return {
    async signals(orgId, now) {
      const url = `${integrationsUrl.replace(/\/+$/, '')}/internal/platform-activity?orgId=${encodeURIComponent(orgId)}`;
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (response.status !== 200) throw new Error(`the integrations service answered ${response.status}`);
      const body = (await response.json()) as { platforms?: Array<Record<string, unknown>> };
      if (!Array.isArray(body.platforms)) throw new Error('the integrations service answered in an unknown form');
      const platforms = body.platforms.map((platform) => ({
        id: String(platform.id),
        kind: String(platform.kind),
        name: String(platform.name),
        status: String(platform.status),
        itemsReceived: Number(platform.itemsReceived),
        lastEventAt: platform.lastEventAt ? new Date(String(platform.lastEventAt)) : null,
        createdAt: new Date(String(platform.createdAt)),
      }));
      return platformSignals(platforms, await rulesOf(orgId), now);
    },
  };
}
