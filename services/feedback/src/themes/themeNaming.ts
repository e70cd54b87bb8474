import type { Logger } from '@fi/shared';
import { modelText, ModelUnavailable, type ThemeNamer } from '../ai';
import type { ThemeStore } from './data/themeStore';

/** Themes named per computation at most (one request each): bounds the tokens of a first computation. */
export const MAX_NAMED_PER_COMPUTATION = 20;
/** Items of a theme sent to name it, and the characters of each. */
export const NAMING_ITEMS = 8;
const NAMING_ITEM_CHARS = 500;
/** Themes whose reply held no name, remembered so as not to ask again (forgotten past this many). */
const MAX_UNUSABLE = 10_000;

/** A theme to name: its id and a few of its items (newest first). */
export interface UnnamedTheme {
  id: string;
  items: Array<{ title: string; text: string }>;
}

/**
 * The chat model naming automatic themes (use `theme-names`), in the background: nothing waits for it. A
 * computation hands over its themes that neither a person nor the model named yet; up to
 * MAX_NAMED_PER_COMPUTATION are asked one by one (one organization's at a time), and each name is written
 * to its theme at once, unless a person renamed it meanwhile. A theme keeps its local label until then and
 * whenever the model fails; after a failure (the server failed, hung, asked to wait, or the organization's
 * tokens are spent) the organization is not asked again before `retryMs`, when `ready` has it computed
 * again. A reply without a usable name is not asked again for that theme.
 */
export function themeNaming(
  namer: ThemeNamer,
  store: ThemeStore,
  ready: (orgId: string) => void,
  retryMs: number,
  logger: Logger,
  clock: () => number = Date.now,
) {
  const asking = new Set<string>();
  const failedAt = new Map<string, number>();
  const unusable = new Set<string>();

  const run = async (orgId: string, themes: UnnamedTheme[]) => {
    for (const theme of themes) {
      const texts = theme.items
        .slice(0, NAMING_ITEMS)
        .map((item) => modelText({ title: item.title, content: item.text }).slice(0, NAMING_ITEM_CHARS));
      const name = await namer.name(orgId, texts);
      if (unusable.size > MAX_UNUSABLE) unusable.clear();
      if (!name) unusable.add(theme.id);
      else await store.nameByModel(orgId, theme.id, name.label, name.summary);
    }
  };

  return {
    /** Asks for names of these themes in the background, unless the organization's are being asked or wait after a failure. */
    request(orgId: string, themes: readonly UnnamedTheme[]): void {
      const wanted = themes.filter((theme) => !unusable.has(theme.id)).slice(0, MAX_NAMED_PER_COMPUTATION);
      const lastFailure = failedAt.get(orgId);
      if (wanted.length === 0 || asking.has(orgId) || (lastFailure !== undefined && clock() - lastFailure < retryMs))
        return;
      asking.add(orgId);
      run(orgId, wanted)
        .then(() => {
          failedAt.delete(orgId);
          // More themes than one computation names: the next computation asks for the rest.
          if (themes.length > wanted.length) ready(orgId);
        })
        .catch((error: unknown) => {
          failedAt.set(orgId, clock());
          setTimeout(() => ready(orgId), retryMs).unref();
          if (!(error instanceof ModelUnavailable))
            logger.warn({ err: error, orgId }, 'naming themes failed: their local labels stay, asked again later');
        })
        .finally(() => asking.delete(orgId));
    },
  };
}

export type ThemeNaming = ReturnType<typeof themeNaming>;
