// Themes: a taxonomy people curate (assigned to every item, corrected by people), and suggestions computed
// from the organization's newest items in the background (ids kept while a theme persists), renamed,
// merged or accepted by people, with figures per day kept apart from the item counts.
export { ThemeStore, MAX_THEMED_ITEMS, type PreviousTheme } from './data/themeStore';
export {
  listThemes,
  mergeThemes,
  themesInRange,
  unmergeThemes,
  MAX_THEMES_TAKE,
  type ThemeList,
  type ThemeView,
} from './feedbackThemes';
export { createThemeLoaders, type ThemeLoaders, type ThemesContext } from './themeLoaders';
export { createThemeResolvers, themeFigureFields } from './themeResolvers';
export { createCuratedAdminResolvers, createCuratedResolvers, curatedThemeFields } from './curatedResolvers';
export { computeThemes } from './themeClustering';
export { recomputeThemes, refreshThemeDays, startThemeWorker } from './themeWorker';
export { curateDemoTaxonomy, DEMO_TAXONOMY } from './demoTaxonomy';
export { themeDayTally } from './themeRecount';
export {
  acceptSuggestedTheme,
  correctItemTheme,
  createCuratedTheme,
  removeCuratedTheme,
  updateCuratedTheme,
  type CuratedPorts,
} from './curatedThemes';
export { curatedAssignment, repeatedSuggestions } from './curatedAssignment';
export { checkPlacement, composeThemeIds, correctMatches, parseThemeInput, MAX_LEVELS } from './taxonomy';
export { themeMatcher, MATCH_SETTINGS, type MatchText, type ThemeSpec } from './themeMatching';
export { themeProfileText, vectorMatcher, VECTOR_MATCH_SETTINGS } from './vectorMatching';
export type { Correction, ItemThemes } from './data/taxonomyStore';
export type { Theme } from './data/themeModel';
