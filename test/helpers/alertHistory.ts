import type { FeedbackRecord } from '@fi/feedback';

export const DAY_MS = 86_400_000;

/**
 * A clock for the alert detector: noon of the day before yesterday (UTC), moving with real time, plus what
 * a test shifts it by. A fixed day keeps tests away from midnight and lets them move to later days.
 */
export function alertClock() {
  const anchor = Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS + 12 * 3_600_000;
  const started = Date.now();
  let shift = 0;
  return {
    anchor,
    now: () => new Date(anchor + (Date.now() - started) + shift),
    shift(ms: number) {
      shift = ms;
    },
    /** Moves the clock so that it reads `at` now. */
    moveTo(at: number) {
      shift = at - (anchor + (Date.now() - started));
    },
  };
}

export const NOISE: Array<[string, string]> = [
  ['Gantt colours', 'Could the Gantt chart use the project colour?'],
  ['Calendar sync', 'The calendar sync with Outlook works well.'],
  ['Mobile app', 'The mobile app opens the project list quickly.'],
  ['Search filters', 'Saved search filters would help our team.'],
];
export const BILLING: Array<[string, string]> = [
  ['Invoice VAT', 'Our invoice lacks the VAT number.'],
  ['Invoice address', 'The invoice shows our old billing address.'],
  ['Invoice copy', 'Where do I download a copy of the invoice?'],
];

export const record = ([title, content]: [string, string], at: number, n: number): FeedbackRecord => ({
  source: 'api',
  title,
  content: `${content} (${n})`,
  sentiment: 'neutral',
  status: 'unread',
  publishedDate: new Date(at),
  createdAt: new Date(at),
});

/** Billing items of the 28 days of history(): 1 or 2 a day. */
export const HISTORY_BILLING = 42;

/**
 * 28 days of history before the anchor's day: each day 1 or 2 billing items (1.5 a day) and the four noise
 * items, then the anchor's day so far: `billingToday` billing items and the four noise items.
 */
export function history(anchor: number, billingToday: number): FeedbackRecord[] {
  const dayStart = Math.floor(anchor / DAY_MS) * DAY_MS;
  const records: FeedbackRecord[] = [];
  for (let day = 1; day <= 28; day += 1) {
    const start = dayStart - day * DAY_MS;
    for (let i = 0; i < 1 + (day % 2); i += 1) records.push(record(BILLING[i % 3], start + 3_600_000 * (9 + i), day));
    NOISE.forEach((text, i) => records.push(record(text, start + 3_600_000 * (10 + i), day)));
  }
  for (let i = 0; i < billingToday; i += 1) records.push(record(BILLING[i % 3], anchor - 60_000 * (i + 1), 100 + i));
  NOISE.forEach((text, i) => records.push(record(text, anchor - 3_600_000 * (i + 1), 100)));
  return records;
}
