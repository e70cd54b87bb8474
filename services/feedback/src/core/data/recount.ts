import type { Connection } from 'mongoose';
import { addTo, countPath, splitCountPath, type CellChange } from '../model/countDelta';
import { countedOf } from '../model/feedbackItem';
import { CountStore, type CellDocument } from './countStore';
import { toItem } from './feedbackDocuments';
import { distinctValues } from './ferretDbV1';
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

const nested = (inc: Record<string, number>) => {
  const c: CellDocument['c'] = {};
  for (const [path, n] of Object.entries(inc)) {
    const [status, sentiment] = splitCountPath(path);
    (c[status] ??= {})[sentiment] = n;
  }
  return c;
};

/**
 * Counts an organization's items from scratch (one streamed read of its items, each handed to `visit`
 * too, for figures kept elsewhere) and rewrites every kept cell that differs, reporting the drift it
 * repaired. Writes made while it runs may be overwritten: run it when the organization's writes are
 * paused, or run it again until it reports no drift.
 */
export async function recountCells(
  connection: Connection,
  orgId: string,
  visit: (doc: FeedbackDocument) => void = () => undefined,
): Promise<RecountReport> {
  const counts = new CountStore(connection);
  const computed = new Map<string, CellChange>();
  let items = 0;
  const cursor = feedbackModel(connection).find({ orgId }).lean<FeedbackDocument>().batchSize(5_000).cursor();
  for await (const doc of cursor) {
    items += 1;
    addTo(computed, countedOf(toItem(doc)), 1);
    visit(doc);
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
    const newestOff = (change.newest?.getTime() ?? null) !== (cell?.newest?.getTime() ?? null);
    if (off === 0 && !newestOff && cell) continue;
    report.repairedCells += 1;
    report.drift += off;
    await counts.replace(change.cell, { c: nested(change.inc), newest: change.newest ?? null }, cell);
  }
  // Cells no item is counted in any more.
  for (const cell of stored.values()) {
    const off = [...countsOf(cell.c).values()].reduce((sum, n) => sum + Math.abs(n), 0);
    if (off > 0) report.repairedCells += 1;
    report.drift += off;
    await counts.replace(
      { scope: cell.scope, orgId, key: cell.key, ...(cell.source !== undefined ? { source: cell.source } : {}) },
      null,
    );
  }
  return report;
}

/** The organizations that have feedback (`counts recount` of all of them: an upgrade's first count). */
export const organizationsWithItems = (connection: Connection): Promise<string[]> =>
  distinctValues(connection, feedbackModel(connection).collection.collectionName, 'orgId');
