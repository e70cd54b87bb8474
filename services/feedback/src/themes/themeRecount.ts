import { cellKey, utcDay } from '../core';
import { addThemes, type ThemeFigures } from './data/themeDays';

/** The theme figures of every day and source, counted from an organization's items as `counts recount` reads them. */
export function themeDayTally(orgId: string) {
  const days = new Map<string, { day: string; source: string; t: ThemeFigures }>();
  return {
    days,
    add(doc: { publishedDate: Date; source: string; themeIds?: string[]; sentiment?: string | null }) {
      const day = utcDay(doc.publishedDate);
      const id = cellKey({ scope: 'day', orgId, key: day, source: doc.source });
      const entry = days.get(id) ?? { day, source: doc.source, t: {} };
      days.set(id, entry);
      if (doc.themeIds) addThemes(entry.t, doc.themeIds, doc.sentiment);
    },
  };
}
