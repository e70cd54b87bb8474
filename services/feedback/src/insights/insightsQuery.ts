import { badRequest } from '@fi/shared';
import { DAY_MS } from '../core';

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** Longest range one request may ask for. */
export const MAX_RANGE_DAYS = 366;

export interface InsightsQuery {
  from: Date;
  to: Date;
  source?: string;
  interval: Interval;
}

/** Checks the range and interval; the range is half-open, [from, to). */
export function parseInsightsArgs(args: {
  from: Date;
  to: Date;
  source?: string | null;
  interval?: string | null;
}): InsightsQuery {
  const interval = args.interval ?? 'day';
  if (!(INTERVALS as readonly string[]).includes(interval)) {
    throw badRequest(`interval must be one of ${INTERVALS.join(', ')} (got ${JSON.stringify(interval)})`, {
      argument: 'interval',
      allowed: INTERVALS,
    });
  }
  if (args.from.getTime() >= args.to.getTime()) throw badRequest('from must be before to', { argument: 'from' });
  if (args.to.getTime() - args.from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw badRequest(`The range from..to must be at most ${MAX_RANGE_DAYS} days`, {
      argument: 'to',
      max: MAX_RANGE_DAYS,
    });
  }
  return { from: args.from, to: args.to, source: args.source ?? undefined, interval: interval as Interval };
}

/** `date` moved by `months` calendar months (UTC), its day of the month kept or, when the month is shorter, its last day. */
function addMonths(date: Date, months: number): Date {
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

/** The start of each bucket: `from`, then every day, week (7 days) or calendar month after it, up to `to`. */
export function bucketStarts(query: InsightsQuery): Date[] {
  const starts: Date[] = [];
  if (query.interval === 'month') {
    for (let k = 0, t = query.from; t.getTime() < query.to.getTime(); k += 1, t = addMonths(query.from, k))
      starts.push(t);
    return starts;
  }
  const step = query.interval === 'day' ? DAY_MS : 7 * DAY_MS;
  for (let t = query.from.getTime(); t < query.to.getTime(); t += step) starts.push(new Date(t));
  return starts;
}

/** A function from a date to the index of its bucket among `starts` (-1 before the first). */
export function bucketIndexer(starts: Date[]): (date: Date) => number {
  const times = starts.map((start) => start.getTime());
  return (date) => {
    const t = date.getTime();
    let lo = 0;
    let hi = times.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) [found, lo] = [mid, mid + 1];
      else hi = mid - 1;
    }
    return found;
  };
}
