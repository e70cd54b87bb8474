// Merging duplicates (the use cases are the core's): the resolvers and an item's duplicates, per request.
export { createDuplicateLoader, type DuplicateLoader, type MergesContext } from './duplicateLoader';
export { createMergeResolvers, duplicateFields } from './mergeResolvers';
