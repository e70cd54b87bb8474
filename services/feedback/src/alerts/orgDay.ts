const HOUR_MS = 3_600_000;

/** The offset of `zone` from UTC at `at`, in ms (positive east of Greenwich). */
function offsetAt(zone: string, at: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  const local = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return local - Math.floor(at / 1000) * 1000;
}

/** The organization's day `now` falls in: its key (YYYY-MM-DD, local) and its first instant. */
export function orgDay(zone: string, now: Date): { key: string; start: Date } {
  const local = new Date(now.getTime() + offsetAt(zone, now.getTime()));
  const key = local.toISOString().slice(0, 10);
  const midnight = Date.parse(`${key}T00:00:00.000Z`);
  // The offset at local midnight, which a daylight-saving change that day may make differ from now's.
  let start = midnight - offsetAt(zone, midnight - offsetAt(zone, now.getTime()));
  if (start > now.getTime()) start -= HOUR_MS;
  return { key, start: new Date(start) };
}
