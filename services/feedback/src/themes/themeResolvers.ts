import type { Resolvers } from '../generated/resolvers';
import {
  checkExamplesTake,
  listThemes,
  mergeThemes,
  renameTheme,
  unmergeThemes,
  type ThemeView,
} from './feedbackThemes';
import type { Theme, ThemeStore } from './data/themeStore';
import type { ThemesContext } from './themeLoaders';

export const NOT_AUTHORIZED_TO_RENAME = 'Not authorized to rename themes';
export const NOT_AUTHORIZED_TO_MERGE = 'Not authorized to merge themes';

/** Figures of a theme seen outside feedbackThemes: all of its items, no previous period. */
async function figuresOf(theme: ThemeView, ctx: ThemesContext) {
  if (theme.figures) return theme.figures;
  const counts = (await ctx.themes.allTimeCounts(theme.orgId)).get(theme.id);
  return { count: counts?.count ?? 0, negative: counts?.negative ?? 0, previousCount: 0 };
}

/** A theme's figures, the same in the public and the admin schema. */
export const themeFigureFields = {
  count: async (theme: ThemeView, _: unknown, ctx: ThemesContext) => (await figuresOf(theme, ctx)).count,
  negative: async (theme: ThemeView, _: unknown, ctx: ThemesContext) => (await figuresOf(theme, ctx)).negative,
  previousCount: async (theme: ThemeView, _: unknown, ctx: ThemesContext) =>
    (await figuresOf(theme, ctx)).previousCount,
};

export function createThemeResolvers(store: ThemeStore): Pick<Resolvers, 'FeedbackTheme'> & {
  Query: Pick<NonNullable<Resolvers['Query']>, 'feedbackThemes'>;
  Mutation: Pick<
    NonNullable<Resolvers['Mutation']>,
    'renameFeedbackTheme' | 'mergeFeedbackThemes' | 'unmergeFeedbackThemes'
  >;
  FeedbackItem: Pick<NonNullable<Resolvers['FeedbackItem']>, 'themes'>;
} {
  return {
    Query: {
      feedbackThemes: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        return listThemes(store, caller.orgId, args);
      },
    },
    Mutation: {
      renameFeedbackTheme: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_RENAME);
        const theme = await renameTheme(store, caller.orgId, args.id, args.label);
        ctx.logger.info({ orgId: caller.orgId, themeId: theme.id }, 'feedback theme renamed');
        return theme;
      },
      mergeFeedbackThemes: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MERGE);
        const theme = await mergeThemes(store, caller.orgId, args.id, args.themeIds);
        ctx.logger.info(
          { orgId: caller.orgId, themeId: theme.id, merged: args.themeIds.length },
          'feedback themes merged',
        );
        return theme;
      },
      unmergeFeedbackThemes: async (_, args, ctx) => {
        const caller = await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_MERGE);
        const theme = await unmergeThemes(store, caller.orgId, args.id);
        ctx.logger.info({ orgId: caller.orgId, themeId: theme.id }, 'feedback themes unmerged');
        return theme;
      },
    },
    FeedbackTheme: {
      ...themeFigureFields,
      examples: async (theme, args) => {
        const take = args.take ?? 3;
        checkExamplesTake(take);
        return store.examples(theme.orgId, theme.id, theme.range, take);
      },
    },
    FeedbackItem: {
      themes: async (item, _, ctx) => {
        const themes = await ctx.themes.byId.loadMany((item.themeIds ?? []).map((id) => ({ orgId: item.orgId, id })));
        return themes
          .filter((theme): theme is Theme => theme !== null && !(theme instanceof Error))
          .map((theme) => ({ ...theme, range: {} }));
      },
    },
  };
}
