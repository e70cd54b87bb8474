import { badRequest } from '@fi/shared';

export const INTERVALS = ['day', 'week'] as const;
export type Interval = (typeof INTERVALS)[number];

/** Longest range one request may ask for. */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

export interface InsightsQuery {
  from: Date;
  to: Date;
  source?: string;
  interval: Interval;
}

/** Checks the range and interval; the range is half-open, [from, to). */
export function parseInsightsArgs(args: { from: Date; to: Date; source?: string | null; interval?: string | null }): InsightsQuery {
  const interval = args.interval ?? 'day';
  if (!(INTERVALS as readonly string[]).includes(interval)) {
    throw badRequest(`interval must be one of ${INTERVALS.join(', ')} (got ${JSON.stringify(interval)})`, { argument: 'interval', allowed: INTERVALS });
  }
  if (args.from.getTime() >= args.to.getTime()) throw badRequest('from must be before to', { argument: 'from' });
  if (args.to.getTime() - args.from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw badRequest(`The range from..to must be at most ${MAX_RANGE_DAYS} days`, { argument: 'to', max: MAX_RANGE_DAYS });
  }
  return { from: args.from, to: args.to, source: args.source ?? undefined, interval: interval as Interval };
}

/** The start of each bucket: `from`, then every day or week (7 days) after it, up to `to`. */
export function bucketStarts(query: InsightsQuery): Date[] {
  const step = query.interval === 'day' ? DAY_MS : 7 * DAY_MS;
  const starts: Date[] = [];
  for (let t = query.from.getTime(); t < query.to.getTime(); t += step) starts.push(new Date(t));
  return starts;
}

export function bucketIndex(query: InsightsQuery, date: Date): number {
  const step = query.interval === 'day' ? DAY_MS : 7 * DAY_MS;
  return Math.floor((date.getTime() - query.from.getTime()) / step);
}
