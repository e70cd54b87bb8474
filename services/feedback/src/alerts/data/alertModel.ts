/** What an alert is about: a theme's day, a new suggested theme, the negative share, a platform gone quiet. */
export const ALERT_KINDS = ['theme_spike', 'new_theme', 'negative_share', 'platform_silent'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** open: nobody looked yet; acknowledged: a person saw it (it may still be going on); closed: it is over. */
export const ALERT_STATUSES = ['open', 'acknowledged', 'closed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** An alert as the feature and the API see it. */
export interface Alert {
  id: string;
  orgId: string;
  kind: AlertKind;
  /** The theme id, `negative` for the negative share, the source for a silent platform. */
  subject: string;
  themeId: string | null;
  /** The theme's label when the alert opened (a theme renamed later keeps its id). */
  label: string;
  /** The spike's window: the organization's day it opened on (one alert per subject and window). */
  window: string;
  status: AlertStatus;
  openedAt: Date;
  updatedAt: Date;
  acknowledgedAt: Date | null;
  closedAt: Date | null;
  /** Items of the spike (negative items for the negative share), as of the last pass. */
  count: number;
  /** The expected count of a day from the baseline (the negative share: its baseline share, 0 to 1). */
  baseline: number;
  /** Today's items in all (the negative share's denominator); the count for other kinds. */
  total: number;
  /** The test's probability of a count this high on a day like the baseline's. */
  p: number;
  /** Up to five of the spike's items, newest first. */
  exampleIds: string[];
}

/** A spike as a pass of the detector finds it (see spikeDetection.ts). */
export interface Signal {
  kind: AlertKind;
  subject: string;
  themeId: string | null;
  label: string;
  count: number;
  total: number;
  baseline: number;
  p: number;
  /** Significant and large enough to open an alert now. */
  fires: boolean;
  /** Still high enough for an open alert to stay open. */
  holds: boolean;
}

/** An organization's alert rules; every field has a default (see DEFAULT_RULES). */
export interface AlertRules {
  /** Fire only when today's count is at least this many times the baseline's daily rate. */
  minRatio: number;
  /** ...and at least this many items. */
  minItems: number;
  /** ...and the test's p is below this. */
  maxP: number;
  /** The negative share fires when it rose by at least this much (0 to 1) over its baseline share. */
  minShareRise: number;
  /** A new suggested theme fires once it has this many items in a day. */
  newThemeMinItems: number;
  /** After an alert of a subject closes, no new one of it for this long. */
  cooldownHours: number;
  /** Themes that never alert. */
  mutedThemeIds: string[];
  /** IANA time zone whose days the counts follow. */
  timeZone: string;
}

export const DEFAULT_RULES: AlertRules = {
  minRatio: 3,
  minItems: 5,
  maxP: 0.01,
  minShareRise: 0.2,
  newThemeMinItems: 5,
  cooldownHours: 24,
  mutedThemeIds: [],
  timeZone: 'UTC',
};
