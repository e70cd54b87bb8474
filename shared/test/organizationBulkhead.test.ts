import { buildSchema, execute, parse, type GraphQLObjectType } from 'graphql';
import { Bulkhead } from '../src/bulkhead';
import { limitPerOrganization } from '../src/organizationBulkhead';
import type { SubgraphContext } from '../src/subgraph';

const ITEMS = 5;

/** A bulkhead that tells when it has refused a given number of places (a state to wait for, not a delay). */
class WatchedBulkhead extends Bulkhead {
  refused = 0;
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  override acquire(name: string): Promise<() => void> {
    const place = super.acquire(name);
    place.catch(() => {
      this.refused += 1;
      for (const waiter of this.waiters.filter((w) => this.refused >= w.count)) waiter.resolve();
    });
    return place;
  }

  refusedAtLeast(count: number): Promise<void> {
    if (this.refused >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

/** A page of items whose `nested` field reads per item; the first read holds its place until `release`. */
function pageSchema(bulkhead: Bulkhead) {
  const ran: number[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const schema = buildSchema('type Query { items(n: Int!): [Item!]! } type Item { id: Int! nested: Int }');
  schema.getQueryType()!.getFields().items.resolve = (_, { n }: { n: number }) =>
    Array.from({ length: n }, (_, id) => ({ id }));
  (schema.getType('Item') as GraphQLObjectType).getFields().nested.resolve = async ({ id }: { id: number }) => {
    ran.push(id);
    if (ran.length === 1) await released;
    return id;
  };
  return { schema: limitPerOrganization(schema, bulkhead, 'test', new Set(['Item.nested'])), ran, release };
}

const contextOf = (orgId: string) =>
  ({ allowedOrgs: () => Promise.resolve(new Set([orgId])) }) as unknown as SubgraphContext;

describe("an organization's bulkhead around nested reads", () => {
  test("when one of a request's nested reads is refused, then its reads still waiting are refused too instead of running, and the next request is served", async () => {
    // One place, one waiting: of the five nested reads, the first runs, the second waits, three are refused.
    const bulkhead = new WatchedBulkhead({ concurrency: 1, queue: 1, maxWaitMs: 60_000 });
    const { schema, ran, release } = pageSchema(bulkhead);
    const page = (n: number) =>
      execute({ schema, document: parse(`{ items(n: ${n}) { id nested } }`), contextValue: contextOf('org-a') });

    const answer = page(ITEMS);
    await bulkhead.refusedAtLeast(ITEMS - 2);
    release();
    const { data, errors } = await answer;

    // The waiting read got its place once the first was done, and was refused then: its request was already refused.
    expect(ran).toEqual([0]);
    expect(data?.items).toEqual([0, 1, 2, 3, 4].map((id) => ({ id, nested: id === 0 ? 0 : null })));
    const refusals = errors?.map((error) => [error.path, error.extensions.code]);
    expect(refusals?.sort()).toEqual([1, 2, 3, 4].map((id) => [['items', id, 'nested'], 'RATE_LIMITED']));

    // The refusal belongs to that request: another of the organization's waits for its place and runs.
    const next = await page(2);
    expect(next.errors).toBeUndefined();
    expect(ran.slice(1).sort()).toEqual([0, 1]);
  });
});
