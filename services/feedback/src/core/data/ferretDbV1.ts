import type { Connection, PipelineStage } from 'mongoose';

/**
 * The FerretDB v1 adapter: every shape this service's stores give a query or a write because of the
 * embedded engine (FerretDB v1 over SQLite, the development and test database), in one place. MongoDB 7,
 * the production target, answers each of them as it would the plain form, so none is a rule of the
 * domain; once the embedded engine is gone, each can go back to the plain form here.
 */

/**
 * Values of one `_id: {$in}`: the embedded engine pushes lists of up to 32,000 values down to SQL and
 * reads a longer one as the whole collection.
 */
export const IDS_PER_QUERY = 10_000;

/** `ids` in lists of at most IDS_PER_QUERY. */
export function* idChunks<T>(ids: T[]): Generator<T[]> {
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) yield ids.slice(at, at + IDS_PER_QUERY);
}

/** A lone `_id` equality for one id (the filter every MongoDB-compatible server answers by key), `$in` for more. */
export const idsFilter = <T>(ids: T[]): { _id: T | { $in: T[] } } =>
  ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } };

/**
 * Writes to one document per round trip where MongoDB would take a large batch: FerretDB v1 scans the
 * collection for each update that is not by `_id` alone, so a large batch would outlive the time limit.
 */
export const SMALL_WRITE_BATCH = 100;

/**
 * The distinct values of `field` among the documents `match` selects, as a `$group`: FerretDB v1 refuses
 * `distinct` with a time limit.
 */
export async function distinctValues(
  connection: Connection,
  collection: string,
  field: string,
  match: Record<string, unknown> = {},
  /** Absent: no limit (the CLI's reads of every organization). */
  maxTimeMS?: number,
): Promise<string[]> {
  const pipeline: PipelineStage[] = [
    ...(Object.keys(match).length > 0 ? [{ $match: match }] : []),
    { $group: { _id: `$${field}` } },
  ];
  const rows = await connection
    .collection(collection)
    .aggregate<{ _id: string }>(pipeline, maxTimeMS ? { maxTimeMS } : {})
    .toArray();
  return rows.map((row) => row._id);
}

const DAY_MS = 86_400_000;
const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;
/** Day ranges up to this long are read as a list of their days (two years and their previous period). */
const MAX_LISTED_DAYS = 1_500;

/**
 * The condition on day keys (YYYY-MM-DD) for the UTC days [from, to): the list of those days when both
 * ends are days and the range is not longer than MAX_LISTED_DAYS, else the range. A list is equalities,
 * which every engine reads from an (organization, ..., key) index; the embedded engine reads a string
 * range by reading every document of the organization (its push-down takes no string ranges: a JSON text
 * of a string does not sort as the string).
 */
export function dayKeys(from: string, to: string): { $in: string[] } | { $gte: string; $lt: string } {
  if (!DAY_KEY.test(from) || !DAY_KEY.test(to)) return { $gte: from, $lt: to };
  const start = Date.parse(`${from}T00:00:00.000Z`);
  const end = Date.parse(`${to}T00:00:00.000Z`);
  if (!(end > start) || (end - start) / DAY_MS > MAX_LISTED_DAYS) return { $gte: from, $lt: to };
  const days: string[] = [];
  for (let day = start; day < end; day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return { $in: days };
}
