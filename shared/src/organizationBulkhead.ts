import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import { type Bulkhead, BulkheadRefused } from './bulkhead';
import { appError, ErrorCode } from './errors';
import type { SubgraphContext } from './subgraph';

/** Seconds a refused organization is told to wait: places free up as its own operations finish. */
export const ORGANIZATION_BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The organization an operation works for: the one of the keys the gateway forwarded, else the one of
 * the field's own `apiKey`. Null when neither is valid: the resolver then answers UNAUTHENTICATED itself.
 */
async function organizationOf(context: SubgraphContext, args: Record<string, unknown>): Promise<string | null> {
  try {
    return [...(await context.allowedOrgs())].sort().join(',');
  } catch {
    if (typeof args.apiKey !== 'string') return null;
    return context.auth.require(args.apiKey).then(
      (caller) => caller.orgId,
      () => null,
    );
  }
}

/**
 * A bulkhead per organization around every root field of a subgraph (`_entities` included) and every
 * field below them that reads the database for each parent on its own (`readsPerParent`, e.g.
 * `FeedbackItem.similar`): each is one operation of its organization's database work (a page's read and
 * count, a write, a batch of entity look-ups, a nested read per item). Fields whose reads a loader
 * batches are not among them: a place per call would split the batch. A root field's place is given
 * back when its own resolver is done, before the fields below it run, so a nested field never waits for
 * a place its own query holds. An organization runs at most ORG_CONCURRENCY operations at once, all
 * together at most DB_CONCURRENCY; more wait while they would start within ORG_QUEUE_WAIT_MS, a freed
 * place going to the waiting organization with the fewest running, and are otherwise refused with
 * RATE_LIMITED: no organization can hold more than its share of the database pool, whatever the others
 * do, however its queries nest.
 */
export function limitPerOrganization(
  schema: GraphQLSchema,
  bulkhead: Bulkhead,
  service: string,
  readsPerParent: ReadonlySet<string> = new Set(),
): GraphQLSchema {
  const roots = [schema.getQueryType(), schema.getMutationType()];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const root = roots.includes(type);
    for (const field of Object.values(type.getFields())) {
      // The SDL query of the gateway's composition reads no data.
      if (field.name === '_service') continue;
      if (!root && !readsPerParent.has(`${type.name}.${field.name}`)) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = async (source, args: Record<string, unknown>, context: SubgraphContext, info) => {
        const organization = await organizationOf(context, args);
        if (organization === null) return resolve(source, args, context, info);
        try {
          return await bulkhead.run(organization, () => resolve(source, args, context, info));
        } catch (error) {
          if (!(error instanceof BulkheadRefused)) throw error;
          throw appError(
            ErrorCode.RATE_LIMITED,
            `This organization has too many operations in progress on the ${service} service; retry in ${ORGANIZATION_BUSY_RETRY_AFTER_SECONDS} s`,
            { retryAfter: ORGANIZATION_BUSY_RETRY_AFTER_SECONDS, service },
          );
        }
      };
    }
  }
  return schema;
}
