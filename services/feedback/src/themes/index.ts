// Themes: computed from the organization's newest items in the worker process (ids kept while a theme
// persists), renamed and merged by people, with figures per day kept apart from the item counts.
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
export { computeThemes } from './themeClustering';
export { recomputeThemes, refreshThemeDays, startThemeWorker } from './themeWorker';
export { themeDayTally } from './themeRecount';
