import type { mongo } from 'mongoose';

/**
 * Inserts each document unless its unique key is taken (an unordered insert: one round trip, and a taken
 * key stops nothing else); how many were new. Any failure other than a taken key is thrown.
 */
export async function insertNew<T extends mongo.Document>(
  collection: mongo.Collection<T>,
  docs: Array<mongo.OptionalUnlessRequiredId<T>>,
): Promise<number> {
  if (docs.length === 0) return 0;
  try {
    return (await collection.insertMany(docs, { ordered: false })).insertedCount;
  } catch (error) {
    const failures = (error as { writeErrors?: Array<{ code?: number }> | { code?: number } }).writeErrors;
    const list = Array.isArray(failures) ? failures : failures ? [failures] : [];
    if (list.length === 0 || !list.every((failure) => failure.code === 11000)) throw error;
    return docs.length - list.length;
  }
}
