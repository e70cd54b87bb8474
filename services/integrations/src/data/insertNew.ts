import type { mongo } from 'mongoose';
import { insertUnordered } from '@fi/shared/database';

/** Inserts each document unless its unique key is taken (one unordered insert); how many were new. */
export async function insertNew<T extends mongo.Document>(
  collection: mongo.Collection<T>,
  docs: Array<mongo.OptionalUnlessRequiredId<T>>,
): Promise<number> {
  return docs.length - (await insertUnordered(collection, docs)).size;
}
