import type { Model, mongo } from 'mongoose';
import { INDEX_BUILD_TIME_LIMIT } from './mongo';

/**
 * Builds the indexes a mongoose schema declares, each with the index-build time limit. Mongoose's own
 * `createIndexes`/`syncIndexes` drop per-call options such as `timeoutMS`, so their builds ran under
 * the request limit (`MONGODB_MAX_TIME_MS`) and a large collection could stop a service from starting.
 */
export async function buildIndexes<D>(model: Model<D>): Promise<void> {
  for (const [fields, { unique, ...options }] of model.schema.indexes()) {
    // Mongoose allows `unique: [true, message]`; the server takes the flag.
    const flag = Array.isArray(unique) ? unique[0] : unique;
    await model.collection.createIndex(fields as mongo.IndexSpecification, {
      ...options,
      ...(flag === undefined ? {} : { unique: flag }),
      ...INDEX_BUILD_TIME_LIMIT,
    });
  }
}
