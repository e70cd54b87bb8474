import {
  defaultFieldResolver,
  GraphQLError,
  isObjectType,
  responsePathAsArray,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import { type Bulkhead, BulkheadRefused } from './bulkhead';
import { ErrorCode, withoutStack } from './errors';
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
 * Requests (their contexts) of which an operation was refused. Their further operations are refused at
 * once, and those already waiting when their place comes: the request is answered RATE_LIMITED and
 * retried whatever they would read, so a request asking for more than its organization's share (a page
 * of 100 items with 20 similar items each, and 20 more each) stops taking places at its first refusal
 * instead of filling its organization's share with reads nobody will see.
 */
const refusedRequests = new WeakSet<object>();

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
        if (refusedRequests.has(context)) throw busy(service, info);
        try {
          return await bulkhead.run(organization, () => {
            if (refusedRequests.has(context)) throw busy(service, info);
            return resolve(source, args, context, info);
          });
        } catch (error) {
          if (!(error instanceof BulkheadRefused)) throw error;
          refusedRequests.add(context);
          throw busy(service, info);
        }
      };
    }
  }
  return schema;
}

/**
 * The refusal of a busy organization's field: an expected answer, one per refused field (a hundred in one
 * response when a page's nested reads are refused), so made cheap: without a stack (withoutStack), and
 * located at the field already, so that graphql does not wrap it in a second error (whose construction
 * captures and formats a stack of its own).
 */
const busy = (service: string, info: GraphQLResolveInfo) =>
  withoutStack(
    () =>
      new GraphQLError(
        `This organization has too many operations in progress on the ${service} service; retry in ${ORGANIZATION_BUSY_RETRY_AFTER_SECONDS} s`,
        {
          nodes: info.fieldNodes,
          path: responsePathAsArray(info.path),
          extensions: { retryAfter: ORGANIZATION_BUSY_RETRY_AFTER_SECONDS, service, code: ErrorCode.RATE_LIMITED },
        },
      ),
  );
