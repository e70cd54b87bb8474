import type { mongo } from 'mongoose';

/**
 * Inserts documents in one unordered insert, so a document whose unique key is taken stops nothing else
 * (a claim, a redelivery, an item another writer made first). Returns the indexes (in `docs`) of those whose
 * key was taken; any other failure is thrown.
 */
export async function insertUnordered<T extends mongo.Document>(
  collection: Pick<mongo.Collection<T>, 'insertMany'>,
  docs: Array<mongo.OptionalUnlessRequiredId<T>>,
): Promise<Set<number>> {
  const taken = new Set<number>();
  if (docs.length === 0) return taken;
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (error) {
    const failures = [(error as { writeErrors?: unknown }).writeErrors ?? []].flat() as Array<{
      code?: number;
      index?: number;
    }>;
    if (failures.length === 0 || failures.some((failure) => failure.code !== 11000 || failure.index === undefined))
      throw error;
    for (const failure of failures) taken.add(failure.index!);
  }
  return taken;
}
