import type { SubgraphContext } from '@fi/shared';
import type { Resolvers } from '../generated/resolvers';
import type { Resolvers as AdminResolvers } from '../generated/adminResolvers';
import type { ThemeStore } from './data/themeStore';
import type { Theme } from './data/themeModel';
import {
  acceptSuggestedTheme,
  correctItemTheme,
  createCuratedTheme,
  removeCuratedTheme,
  updateCuratedTheme,
  type CuratedPorts,
} from './curatedThemes';
import type { FeedbackItem } from '../core';
import type { ThemesContext } from './themeLoaders';

export const NOT_AUTHORIZED_TO_CURATE = 'Not authorized to change themes';

export const curatedPorts = (store: ThemeStore): CuratedPorts => ({
  taxonomy: store.taxonomy,
  recomputeSoon: (orgId) => store.recomputeSoon(orgId, new Date()),
});

const found = (theme: Theme | null | Error | undefined): theme is Theme =>
  theme !== null && theme !== undefined && !(theme instanceof Error);

/** The curated fields of a theme and an item's matches, the same in the public and the admin schema. */
export const curatedThemeFields = {
  FeedbackTheme: {
    parent: async (theme: Theme, _: unknown, ctx: ThemesContext) => {
      if (!theme.parentId) return null;
      const parent = await ctx.themes.byId.load({ orgId: theme.orgId, id: theme.parentId });
      return parent ? { ...parent, range: {} } : null;
    },
    children: async (theme: Theme, _: unknown, ctx: ThemesContext) =>
      theme.curated
        ? (await ctx.themes.curated(theme.orgId))
            .filter((child) => child.parentId === theme.id)
            .map((child) => ({ ...child, range: {} }))
        : [],
  },
  FeedbackItem: {
    themeMatches: async (item: FeedbackItem, _: unknown, ctx: ThemesContext) => {
      const matches = item.themeMatches ?? [];
      const themes = await ctx.themes.byId.loadMany(matches.map((match) => ({ orgId: item.orgId, id: match.themeId })));
      return matches.flatMap((match, i) => {
        const theme = themes[i];
        return found(theme) && theme.curated
          ? [{ theme: { ...theme, range: {} }, confidence: match.confidence, assignedBy: match.assignedBy }]
          : [];
      });
    },
  },
};

type CuratedMutations =
  | 'createFeedbackTheme'
  | 'updateFeedbackTheme'
  | 'removeFeedbackTheme'
  | 'acceptFeedbackTheme'
  | 'assignFeedbackTheme'
  | 'unassignFeedbackTheme';

/** The public API of the curated taxonomy: writers change it, every key reads it. */
export function createCuratedResolvers(store: ThemeStore): {
  Query: Pick<NonNullable<Resolvers['Query']>, 'feedbackTheme'>;
  Mutation: Pick<NonNullable<Resolvers['Mutation']>, CuratedMutations>;
} {
  const ports = curatedPorts(store);
  const writer = async (ctx: SubgraphContext, apiKey: string) =>
    (await ctx.auth.requireWriter(apiKey, NOT_AUTHORIZED_TO_CURATE)).orgId;
  return {
    Query: {
      feedbackTheme: async (_, args, ctx) => {
        const caller = await ctx.auth.require(args.apiKey);
        const theme = await ctx.themes.byId.load({ orgId: caller.orgId, id: args.id });
        return theme ? { ...theme, range: {} } : null;
      },
    },
    Mutation: {
      createFeedbackTheme: async (_, args, ctx) => {
        const orgId = await writer(ctx, args.apiKey);
        const theme = await createCuratedTheme(ports, orgId, args.input);
        ctx.logger.info({ orgId, themeId: theme.id }, 'curated theme created');
        return theme;
      },
      updateFeedbackTheme: async (_, args, ctx) => {
        const orgId = await writer(ctx, args.apiKey);
        const theme = await updateCuratedTheme(ports, orgId, args.id, args.input);
        ctx.logger.info({ orgId, themeId: theme.id }, 'curated theme updated');
        return theme;
      },
      removeFeedbackTheme: async (_, args, ctx) => {
        const orgId = await writer(ctx, args.apiKey);
        const removed = await removeCuratedTheme(ports, orgId, args.id);
        ctx.logger.info({ orgId, themeId: args.id }, 'curated theme removed');
        return removed;
      },
      acceptFeedbackTheme: async (_, args, ctx) => {
        const orgId = await writer(ctx, args.apiKey);
        const theme = await acceptSuggestedTheme(ports, orgId, args.id);
        ctx.logger.info({ orgId, themeId: theme.id }, 'suggested theme accepted');
        return theme;
      },
      assignFeedbackTheme: async (_, args, ctx) => {
        const orgId = await writer(ctx, args.apiKey);
        const item = await correctItemTheme(ports, orgId, args.itemId, args.themeId, true);
        ctx.logger.info({ orgId, feedbackId: item.id, themeId: args.themeId }, 'feedback theme assigned by a person');
        return item;
      },
      unassignFeedbackTheme: async (_, args, ctx) => {
        const orgId = await writer(ctx, args.apiKey);
        const item = await correctItemTheme(ports, orgId, args.itemId, args.themeId, false);
        ctx.logger.info({ orgId, feedbackId: item.id, themeId: args.themeId }, 'feedback theme unassigned by a person');
        return item;
      },
    },
  };
}

/** The admin API of the curated taxonomy: `member` and `writer` give the signed-in member's organization, or refuse. */
export function createCuratedAdminResolvers(
  store: ThemeStore,
  member: (ctx: SubgraphContext) => string,
  writer: (ctx: SubgraphContext) => string,
): {
  Query: Pick<NonNullable<AdminResolvers['Query']>, 'feedbackTheme' | 'curatedFeedbackThemes'>;
  Mutation: Pick<NonNullable<AdminResolvers['Mutation']>, CuratedMutations>;
} {
  const ports = curatedPorts(store);
  return {
    Query: {
      feedbackTheme: async (_, args, ctx) => {
        const theme = await ctx.themes.byId.load({ orgId: member(ctx), id: args.id });
        return theme ? { ...theme, range: {} } : null;
      },
      curatedFeedbackThemes: async (_, __, ctx) =>
        (await ctx.themes.curated(member(ctx))).map((theme) => ({ ...theme, range: {} })),
    },
    Mutation: {
      createFeedbackTheme: (_, args, ctx) => createCuratedTheme(ports, writer(ctx), args.input),
      updateFeedbackTheme: (_, args, ctx) => updateCuratedTheme(ports, writer(ctx), args.id, args.input),
      removeFeedbackTheme: (_, args, ctx) => removeCuratedTheme(ports, writer(ctx), args.id),
      acceptFeedbackTheme: (_, args, ctx) => acceptSuggestedTheme(ports, writer(ctx), args.id),
      assignFeedbackTheme: (_, args, ctx) => correctItemTheme(ports, writer(ctx), args.itemId, args.themeId, true),
      unassignFeedbackTheme: (_, args, ctx) => correctItemTheme(ports, writer(ctx), args.itemId, args.themeId, false),
    },
  };
}
