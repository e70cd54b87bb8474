import DataLoader from 'dataloader';
import type { ThemeCounts } from './data/themeDays';
import type { Theme, ThemeStore } from './data/themeStore';

/** Per request: themes by id within one organization, and the organization's all-time counts (read once). */
export interface ThemeLoaders {
  byId: DataLoader<{ orgId: string; id: string }, Theme | null, string>;
  allTimeCounts(orgId: string): Promise<Map<string, ThemeCounts>>;
  /** The organization's curated themes, by label (read once). */
  curated(orgId: string): Promise<Theme[]>;
}

/** What the themes' resolvers need of a request's context. */
export interface ThemesContext {
  /** Per-request loaders of themes. */
  themes: ThemeLoaders;
}

export function createThemeLoaders(store: ThemeStore): ThemeLoaders {
  const counts = new Map<string, Promise<Map<string, ThemeCounts>>>();
  const curated = new Map<string, Promise<Theme[]>>();
  return {
    byId: new DataLoader(
      async (keys) => {
        const byOrg = new Map<string, string[]>();
        for (const { orgId, id } of keys) byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), id]);
        const found = new Map<string, Theme>();
        await Promise.all(
          [...byOrg].map(async ([orgId, ids]) =>
            (await store.byIds(orgId, ids)).forEach((theme) => found.set(`${orgId}\n${theme.id}`, theme)),
          ),
        );
        return keys.map(({ orgId, id }) => found.get(`${orgId}\n${id}`) ?? null);
      },
      { cacheKeyFn: ({ orgId, id }) => `${orgId}\n${id}` },
    ),
    allTimeCounts(orgId) {
      if (!counts.has(orgId))
        counts.set(
          orgId,
          store.counts(orgId, undefined, [{}]).then(([all]) => all),
        );
      return counts.get(orgId)!;
    },
    curated(orgId) {
      if (!curated.has(orgId)) curated.set(orgId, store.taxonomy.curated(orgId));
      return curated.get(orgId)!;
    },
  };
}
