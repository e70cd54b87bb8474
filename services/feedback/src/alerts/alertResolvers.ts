import { DIRECTORY_WRITERS, INTEGRATION_MANAGERS, requireMember, requireMemberRole } from '@fi/shared';
import type { FeedbackItem } from '../core';
import type { Resolvers } from '../generated/resolvers';
import type { Resolvers as AdminResolvers } from '../generated/adminResolvers';
import type { ThemesContext } from '../themes';
import type { AlertStore } from './data/alertStore';
import type { Alert } from './data/alertModel';
import {
  acknowledgeAlert,
  listAlerts,
  readRules,
  setRules,
  type AlertRulesView,
  type SlackUrls,
} from './alertOperations';
import { EXAMPLES } from './alertDetector';

export const NOT_AUTHORIZED_TO_ACKNOWLEDGE = 'Not authorized to acknowledge alerts';
export const ONLY_MANAGERS_SET_ALERT_RULES = 'Only owners and admins can change the alert rules';
export const ONLY_WRITERS_ACKNOWLEDGE = 'Only owners, admins and members can acknowledge alerts';

/** Items of the organization by id, in the order asked (gone ones left out). */
export interface ExampleItems {
  findAmong(orgId: string, ids: string[]): Promise<FeedbackItem[]>;
}

/** The fields of an alert computed from elsewhere, the same in the public and the admin schema. */
function alertFields(items: ExampleItems) {
  return {
    theme: async (alert: Alert, _: unknown, ctx: ThemesContext) => {
      if (!alert.themeId) return null;
      const theme = await ctx.themes.byId.load({ orgId: alert.orgId, id: alert.themeId });
      return theme ? { ...theme, range: {} } : null;
    },
    examples: async (alert: Alert, args: { take?: number | null }) => {
      const take = Math.max(0, Math.min(args.take ?? 2, EXAMPLES));
      const ids = alert.exampleIds.slice(0, take);
      const found = new Map((await items.findAmong(alert.orgId, ids)).map((item) => [item.id, item]));
      return ids.map((id) => found.get(id)).filter((item): item is FeedbackItem => item !== undefined);
    },
  };
}

/** The public API: every key reads alerts, writers acknowledge them. */
export function createAlertResolvers(store: AlertStore, items: ExampleItems) {
  return {
    Query: {
      feedbackAlerts: async (_, args, ctx) => listAlerts(store, (await ctx.auth.require(args.apiKey)).orgId, args),
    } satisfies Pick<NonNullable<Resolvers['Query']>, 'feedbackAlerts'>,
    Mutation: {
      acknowledgeFeedbackAlert: async (_, args, ctx) =>
        acknowledgeAlert(
          store,
          (await ctx.auth.requireWriter(args.apiKey, NOT_AUTHORIZED_TO_ACKNOWLEDGE)).orgId,
          args.id,
        ),
    } satisfies Pick<NonNullable<Resolvers['Mutation']>, 'acknowledgeFeedbackAlert'>,
    FeedbackAlert: alertFields(items) satisfies Resolvers['FeedbackAlert'],
  };
}

/** The admin API: every member reads alerts and rules; writers acknowledge; owners and admins set the rules. */
export function createAlertAdminResolvers(store: AlertStore, items: ExampleItems, slack: SlackUrls) {
  return {
    Query: {
      feedbackAlerts: (_, args, ctx) => listAlerts(store, requireMember(ctx.auth).orgId, args),
      feedbackAlertRules: (_, __, ctx) => readRules(store, slack, requireMember(ctx.auth).orgId),
    } satisfies Pick<NonNullable<AdminResolvers['Query']>, 'feedbackAlerts' | 'feedbackAlertRules'>,
    Mutation: {
      acknowledgeFeedbackAlert: (_, args, ctx) =>
        acknowledgeAlert(
          store,
          requireMemberRole(ctx.auth, DIRECTORY_WRITERS, ONLY_WRITERS_ACKNOWLEDGE).orgId,
          args.id,
        ),
      setFeedbackAlertRules: (_, args, ctx) =>
        setRules(
          store,
          slack,
          requireMemberRole(ctx.auth, INTEGRATION_MANAGERS, ONLY_MANAGERS_SET_ALERT_RULES).orgId,
          args.input,
        ),
    } satisfies Pick<NonNullable<AdminResolvers['Mutation']>, 'acknowledgeFeedbackAlert' | 'setFeedbackAlertRules'>,
    FeedbackAlert: alertFields(items) satisfies AdminResolvers['FeedbackAlert'],
    FeedbackAlertRules: {
      mutedThemes: async (rules: AlertRulesView, _: unknown, ctx: ThemesContext) => {
        const themes = await ctx.themes.byId.loadMany(rules.mutedThemeIds.map((id) => ({ orgId: rules.orgId, id })));
        return themes.flatMap((theme) => (theme && !(theme instanceof Error) ? [{ ...theme, range: {} }] : []));
      },
    } satisfies AdminResolvers['FeedbackAlertRules'],
  };
}
