import type { FilterQuery, Model } from 'mongoose';
import { DAY_MS, utcDay } from '../model/countDelta';
import type { FeedbackQuery } from '../model/feedbackQuery';
import { cellCount, type CellDocument, type CountStore } from './countStore';
import type { FeedbackDocument } from './feedbackModel';

const startOfDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
const isMidnight = (date: Date) => date.getTime() % DAY_MS === 0;

/**
 * The exact number of items matching a list's filters, from the kept counts wherever they can answer:
 * status, sentiment and source from the organization's cells; a publishedDate range
 * from the day cells of its whole UTC days, with only its partial first and last day counted from the
 * items (a day's items at most). A search, and a theme (themes are not kept in the cells), are counted
 * from the items they match (see docs/scale.md).
 */
export async function totalOf(
  model: Model<FeedbackDocument>,
  counts: CountStore,
  orgId: string,
  query: FeedbackQuery,
  filter: FilterQuery<FeedbackDocument>,
): Promise<number> {
  if (query.search !== undefined || query.theme !== undefined) return model.countDocuments(filter);
  const { status, sentiment, source } = query;
  // Source cells are keyed by their source, day cells carry it.
  const inCell = (cell: CellDocument) =>
    source === undefined || (cell.source ?? cell.key) === source ? cellCount(cell, status, sentiment) : 0;
  const after = query.publishedAfter;
  const before = query.publishedBefore;
  if (!after && !before) {
    const cells = await counts.find(orgId, 'source', source === undefined ? undefined : { in: [source] });
    return cells.reduce((sum, cell) => sum + inCell(cell), 0);
  }
  // Whole days inside the range come from day cells; the partial days at its ends from the items.
  const firstWhole = after ? (isMidnight(after) ? after : new Date(startOfDay(after).getTime() + DAY_MS)) : null;
  const endWhole = before ? startOfDay(before) : null;
  if (firstWhole && endWhole && firstWhole >= endWhole) return model.countDocuments(filter);
  const cells = await counts.find(orgId, 'day', {
    from: firstWhole ? utcDay(firstWhole) : '',
    to: endWhole ? utcDay(endWhole) : '\uffff',
  });
  let total = cells.reduce((sum, cell) => sum + inCell(cell), 0);
  const edges: Array<{ $gte?: Date; $lt?: Date }> = [];
  if (after && firstWhole && firstWhole > after) edges.push({ $gte: after, $lt: firstWhole });
  if (before && endWhole && endWhole < before) edges.push({ $gte: endWhole, $lt: before });
  for (const publishedDate of edges) total += await model.countDocuments({ ...filter, publishedDate });
  return total;
}
