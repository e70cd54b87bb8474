import { runPasses, type BackgroundWorker } from '../backgroundPasses';
import type { Logger } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import { computeThemes } from './themeClustering';
import { MAX_THEMED_ITEMS, type ThemeStore } from '../data/themeStore';

/** An instance computing an organization's themes holds its run this long at most. */
const LEASE_MS = 5 * 60_000;

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** Computes one organization's themes now and stores them, with the kept theme figures of the days they changed; returns how many themes it has. */
export async function recomputeThemes(store: ThemeStore, orgId: string, now = new Date()): Promise<number> {
  const fingerprint = await store.fingerprint(orgId);
  const items = await store.itemsOf(orgId, MAX_THEMED_ITEMS);
  const previous = await store.previous(orgId, items);
  const { themes, assignments } = computeThemes(items, previous, () => `th_${newObjectIdHex()}`);
  const changes = items
    .map((item) => ({
      id: item.id,
      before: item.themeIds,
      after: assignments.get(item.id) ?? [],
      publishedDate: item.publishedDate,
    }))
    .filter(({ before, after }) => !sameIds(before, after));
  await store.save(orgId, themes, changes, now);
  await store.refreshCounts(orgId);
  await store.finish(orgId, fingerprint, now);
  return themes.length;
}

/**
 * Keeps every organization's themes current in the background: every `intervalMs`, each organization
 * whose items changed since its last computation (count or newest id) is recomputed by whichever
 * instance takes its lease first, and one whose items changed otherwise (a status or sentiment) has the
 * kept theme figures of the changed days counted again. With the default interval, an item is in the
 * themes, and a change in the theme figures of whole days, within about a minute.
 */
export function startThemeWorker(store: ThemeStore, intervalMs: number, logger: Logger): BackgroundWorker {
  const pass = async (closed: () => boolean) => {
    for (const orgId of await store.organizations()) {
      if (closed()) return;
      const run = await store.run(orgId);
      const themesStale = run?.fingerprint !== (await store.fingerprint(orgId, run));
      if (!themesStale && !(await store.countsStale(orgId, run))) continue;
      if (!(await store.lease(orgId, LEASE_MS))) continue;
      const started = Date.now();
      if (themesStale) {
        const count = await recomputeThemes(store, orgId);
        logger.info({ orgId, themes: count, ms: Date.now() - started }, 'feedback themes computed');
      } else {
        const days = await store.refreshCounts(orgId).finally(() => store.release(orgId));
        logger.info({ orgId, days, ms: Date.now() - started }, 'feedback theme figures counted');
      }
    }
  };
  return runPasses(intervalMs, pass, (error) => logger.warn({ err: error }, 'feedback theme computation failed'));
}
