// The documents are in themes.graphql; `npm run codegen` types them against the admin API.
import type { TaxonomyQuery, ThemeItemsQuery } from '../../generated/graphql';

export {
  AcceptThemeDocument as ACCEPT_THEME,
  AssignThemeDocument as ASSIGN_THEME,
  CreateThemeDocument as CREATE_THEME,
  RemoveThemeDocument as REMOVE_THEME,
  TaxonomyDocument as TAXONOMY,
  ThemeItemsDocument as THEME_ITEMS,
  UnassignThemeDocument as UNASSIGN_THEME,
  UpdateThemeDocument as UPDATE_THEME,
} from '../../generated/graphql';

export type CuratedTheme = TaxonomyQuery['curatedFeedbackThemes'][number];
export type Suggestion = TaxonomyQuery['feedbackThemes']['items'][number];
export type ThemeItem = ThemeItemsQuery['feedbackItems']['items'][number];

/** The taxonomy in reading order: each theme followed by the themes under it, with its depth (0 at the top). */
export function treeOf(themes: CuratedTheme[]): Array<{ theme: CuratedTheme; depth: number }> {
  const ids = new Set(themes.map((theme) => theme.id));
  const ordered: Array<{ theme: CuratedTheme; depth: number }> = [];
  const visit = (parentId: string | null, depth: number) => {
    for (const theme of themes)
      if ((theme.parent && ids.has(theme.parent.id) ? theme.parent.id : null) === parentId) {
        ordered.push({ theme, depth });
        visit(theme.id, depth + 1);
      }
  };
  visit(null, 0);
  return ordered;
}

/** Keywords as a person types them: separated by commas. */
export const keywordsOf = (text: string) =>
  text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword.length > 0);
