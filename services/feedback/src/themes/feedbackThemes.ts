import { badRequest, notFound } from '@fi/shared';
import type { ThemeCounts } from './data/themeDays';
import type { Theme, ThemeRange, ThemeStore } from './data/themeStore';

export const MAX_THEMES_TAKE = 100;
export const MAX_EXAMPLES = 20;
export const MAX_LABEL_LENGTH = 100;
export const THEME_NOT_FOUND = 'Theme not found';
export const MAX_MERGED_THEMES = 20;

/** A theme as the API shows it: with its figures in a range (all items when it has none). */
export interface ThemeView extends Theme {
  range: ThemeRange;
  figures?: ThemeCounts & { previousCount: number };
}

export interface ThemeList {
  items: ThemeView[];
  total: number;
  computedAt: Date | null;
}

const checkTake = (take: number, max: number) => {
  if (!Number.isInteger(take) || take < 0 || take > max)
    throw badRequest(`take must be between 0 and ${max} (got ${take})`, { argument: 'take' });
};

/** The organization's themes with items in the range, largest first, with the previous period's counts. */
export async function listThemes(
  store: ThemeStore,
  orgId: string,
  args: { from?: Date | null; to?: Date | null; source?: string | null; take: number },
  now = new Date(),
): Promise<ThemeList> {
  checkTake(args.take, MAX_THEMES_TAKE);
  const to = args.to ?? now;
  const from = args.from ?? undefined;
  if (from && from.getTime() >= to.getTime()) throw badRequest('from must be before to', { argument: 'from' });
  const range: ThemeRange = { from, to, source: args.source ?? undefined };
  const previousFrom = from ? new Date(from.getTime() - (to.getTime() - from.getTime())) : undefined;
  // The range and its previous period in one read of the kept day figures.
  const [[current, previous = new Map<string, ThemeCounts>()], run] = await Promise.all([
    store.counts(
      orgId,
      range.source,
      previousFrom
        ? [
            { from, to },
            { from: previousFrom, to: from },
          ]
        : [{ from, to }],
    ),
    store.run(orgId),
  ]);
  const themes = await store.byIds(orgId, [...current.keys()]);
  const views = themes
    .map((theme): ThemeView => ({
      ...theme,
      range,
      figures: { ...current.get(theme.id)!, previousCount: previous.get(theme.id)?.count ?? 0 },
    }))
    .sort((a, b) => b.figures!.count - a.figures!.count || a.label.localeCompare(b.label));
  return { items: views.slice(0, args.take), total: views.length, computedAt: run?.computedAt ?? null };
}

/** Renames an active theme of the organization; the label is trimmed and 1 to 100 characters. */
export async function renameTheme(store: ThemeStore, orgId: string, id: string, label: string): Promise<ThemeView> {
  const trimmed = label.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_LABEL_LENGTH) {
    throw badRequest(`label must be 1 to ${MAX_LABEL_LENGTH} characters (got ${trimmed.length} after trimming)`, {
      argument: 'label',
    });
  }
  const theme = await store.rename(orgId, id, trimmed);
  if (!theme) throw notFound(THEME_NOT_FOUND);
  return { ...theme, range: {} };
}

/**
 * Merges themes of the organization into an active one of it (see ThemeStore.merge): 1 to 20 others,
 * not the theme itself, each an active theme of the organization; a theme already merged into another
 * cannot take others (they would go where it goes).
 */
export async function mergeThemes(
  store: ThemeStore,
  orgId: string,
  id: string,
  themeIds: string[],
): Promise<ThemeView> {
  const others = [...new Set(themeIds)];
  if (others.length === 0 || others.length > MAX_MERGED_THEMES) {
    throw badRequest(`themeIds must name 1 to ${MAX_MERGED_THEMES} themes (got ${others.length})`, {
      argument: 'themeIds',
    });
  }
  if (others.includes(id))
    throw badRequest('themeIds must not name the theme they are merged into', { argument: 'themeIds' });
  const [target, ...found] = await store.byIds(orgId, [id, ...others]);
  if (target?.id !== id) throw notFound(THEME_NOT_FOUND);
  if (found.length < others.length) throw notFound(`${THEME_NOT_FOUND}: ${others.length - found.length} of themeIds`);
  if (target.mergedInto)
    throw badRequest('the theme is itself merged into another one: merge into that one', { argument: 'id' });
  // A curated theme's items are the taxonomy's assignment, which a computation's merge would not follow.
  if (target.curated || found.some((theme) => theme.curated))
    throw badRequest('curated themes are not merged: assign their items (assignFeedbackTheme) or remove one', {
      argument: target.curated ? 'id' : 'themeIds',
    });
  await store.merge(orgId, id, others);
  return { ...target, range: {} };
}

/** Separates the themes merged into an active theme of the organization (see ThemeStore.unmerge). */
export async function unmergeThemes(store: ThemeStore, orgId: string, id: string): Promise<ThemeView> {
  const theme = await store.unmerge(orgId, id);
  if (!theme) throw notFound(THEME_NOT_FOUND);
  return { ...theme, range: {} };
}

export function checkExamplesTake(take: number): void {
  checkTake(take, MAX_EXAMPLES);
}

/** The organization's themes with items in a range, with their figures and the previous period's (for the insights' rising themes). */
export const themesInRange =
  (store: ThemeStore) => async (orgId: string, range: { from: Date; to: Date; source?: string }) =>
    (await listThemes(store, orgId, { ...range, take: MAX_THEMES_TAKE })).items.map((theme) => ({
      ...theme,
      figures: theme.figures!,
    }));
