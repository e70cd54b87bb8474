import type { Connection } from 'mongoose';
import { addTo, cellKey, countPath, splitCountPath, utcDay, type CellChange } from '../domain/countDelta';
import { CountStore, themeFiguresOf, type CellDocument, type ThemeFigures } from './countStore';
import { addThemes } from './themeCounts';
import { countedOf, toItem } from './feedbackItem';
import { feedbackModel, type FeedbackDocument } from './feedbackModel';

export interface RecountReport {
  items: number;
  cells: number;
  /** Cells whose figures differed from the items and were rewritten (or removed). */
  repairedCells: number;
  /** Sum over the repaired cells of how far each count was off. */
  drift: number;
}

const countsOf = (c: CellDocument['c'] | undefined) => {
  const flat = new Map<string, number>();
  for (const [status, bySentiment] of Object.entries(c ?? {}))
    for (const [sentiment, n] of Object.entries(bySentiment)) if (n !== 0) flat.set(countPath(status, sentiment), n);
  return flat;
};

/** How far two days' theme figures are apart (items and negative items per theme). */
const themeDrift = (have: ThemeFigures, want: ThemeFigures) => {
  let off = 0;
  for (const id of new Set([...Object.keys(have), ...Object.keys(want)])) {
    off +=
      Math.abs((have[id]?.count ?? 0) - (want[id]?.count ?? 0)) +
      Math.abs((have[id]?.negative ?? 0) - (want[id]?.negative ?? 0));
  }
  return off;
};

const nested = (inc: Record<string, number>) => {
  const c: CellDocument['c'] = {};
  for (const [path, n] of Object.entries(inc)) {
    const [status, sentiment] = splitCountPath(path);
    (c[status] ??= {})[sentiment] = n;
  }
  return c;
};

/**
 * Counts an organization's items from scratch (one streamed read of its items) and rewrites every kept
 * cell that differs (with the theme figures of day cells), reporting the drift it repaired. Writes made while it runs may be overwritten:
 * run it when the organization's writes are paused, or run it again until it reports no drift.
 */
export async function recountOrganization(connection: Connection, orgId: string): Promise<RecountReport> {
  const counts = new CountStore(connection);
  const computed = new Map<string, CellChange>();
  // The theme figures of each day cell (see data/themeCounts), by cell key.
  const themes = new Map<string, ThemeFigures>();
  let items = 0;
  const cursor = feedbackModel(connection).find({ orgId }).lean<FeedbackDocument>().batchSize(5_000).cursor();
  for await (const doc of cursor) {
    items += 1;
    addTo(computed, countedOf(toItem(doc)), 1);
    const day = cellKey({ scope: 'day', orgId, key: utcDay(doc.publishedDate), source: doc.source });
    if (!themes.has(day)) themes.set(day, {});
    if (doc.themeIds) addThemes(themes.get(day)!, doc.themeIds, doc.sentiment);
  }
  const stored = new Map((await counts.allOf(orgId)).map((cell) => [cell._id, cell]));
  const report: RecountReport = { items, cells: computed.size, repairedCells: 0, drift: 0 };
  for (const [key, change] of computed) {
    const cell = stored.get(key);
    stored.delete(key);
    const have = countsOf(cell?.c);
    const want = countsOf(nested(change.inc));
    let off = 0;
    for (const path of new Set([...have.keys(), ...want.keys()]))
      off += Math.abs((have.get(path) ?? 0) - (want.get(path) ?? 0));
    const t = themes.get(key) ?? {};
    if (change.cell.scope === 'day') off += themeDrift(themeFiguresOf(cell), t);
    const newestOff = (change.newest?.getTime() ?? null) !== (cell?.newest?.getTime() ?? null);
    if (off === 0 && !newestOff && cell) continue;
    report.repairedCells += 1;
    report.drift += off;
    await counts.replace(change.cell, { c: nested(change.inc), newest: change.newest ?? null, t }, cell);
  }
  // Cells no item is counted in any more.
  for (const cell of stored.values()) {
    const off =
      [...countsOf(cell.c).values()].reduce((sum, n) => sum + Math.abs(n), 0) + themeDrift(themeFiguresOf(cell), {});
    if (off > 0) report.repairedCells += 1;
    report.drift += off;
    await counts.replace(
      { scope: cell.scope, orgId, key: cell.key, ...(cell.source !== undefined ? { source: cell.source } : {}) },
      null,
    );
  }
  return report;
}

/** Recounts one organization, or every organization that has feedback (an upgrade's first count). */
export async function recountOrganizations(
  connection: Connection,
  orgId: string | undefined,
): Promise<RecountReport[]> {
  // `$group` rather than `distinct`: FerretDB v1 refuses distinct with a time limit.
  const orgIds =
    orgId !== undefined
      ? [orgId]
      : (await feedbackModel(connection).aggregate<{ _id: string }>([{ $group: { _id: '$orgId' } }])).map(
          (row) => row._id,
        );
  const reports: RecountReport[] = [];
  for (const id of orgIds) reports.push(await recountOrganization(connection, id));
  return reports;
}
