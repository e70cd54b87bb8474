import type { IncomingHttpHeaders } from 'node:http';
import type { OrgScopedDocument, OrgScopedRepository } from './data/orgScopedRepository';
import { TOMBSTONE_PURGE_INTERVAL_MS, Tombstones } from './data/tombstones';
import { changeFeed, type ChangePage } from './changes/changeFeed';
import { recordChangeSources } from './changes/changeSources';
import type { DirectoryRecords } from './directoryAdmin';
import { notFound } from './errors';
import type { RouteHandler } from './http/graphqlHttpServer';
import type { Logger } from './logger';
import type { Connection } from './data/mongo';
import { toPage, type PageResult } from './pagination';
import type { AdminSchema, ServiceConfig, SubgraphContext, SubgraphResolvers } from './subgraph';
import { startSubgraph, type RunningSubgraph } from './subgraphServer';

interface DirectoryListArgs {
  apiKey: string;
  search?: string | null;
  skip?: number | null;
  take?: number | null;
}

/** unknown when `A` has every key of `K` (optional ones too), else never: a renamed optional argument must not fit. */
type HasKeys<A, K extends PropertyKey> = [K] extends [keyof A] ? unknown : never;

/**
 * What a directory (contacts, accounts) does for its read-only public API: a searchable list, one by id,
 * entities. Each service wires these into resolvers typed from its own SDL; a generated argument type
 * that lost or renamed an argument, even an optional one, does not fit.
 */
export interface DirectoryOperations<T> {
  search<A extends DirectoryListArgs>(
    ctx: SubgraphContext,
    args: A & HasKeys<A, keyof DirectoryListArgs>,
  ): Promise<PageResult<T>>;
  findOne(ctx: SubgraphContext, args: { apiKey: string; id: string }): Promise<T>;
  resolveReference(ctx: SubgraphContext, ref: { id: string }): Promise<T | null>;
  /** `<resource>Changes`: records by their last change, and the tombstones of removed ones. */
  changes(
    ctx: SubgraphContext,
    args: { apiKey: string; after?: string | null; take?: number | null },
  ): Promise<ChangePage<T>>;
}

export function directoryOperations<D extends OrgScopedDocument, T>(
  { repository, tombstones }: DirectoryRecords<D, T>,
  directory: { resource: string; notFoundMessage: string; settleMs: number },
): DirectoryOperations<T> {
  const feed = changeFeed<T>(directory.resource, recordChangeSources(repository, tombstones), directory.settleMs);
  return {
    async search(ctx, args) {
      const caller = await ctx.auth.require(args.apiKey);
      return repository.search(caller.orgId, args.search, toPage(args));
    },
    async findOne(ctx, args) {
      const caller = await ctx.auth.require(args.apiKey);
      const item = await repository.findById(caller.orgId, args.id);
      if (!item) throw notFound(directory.notFoundMessage);
      return item;
    },
    async resolveReference(ctx, ref) {
      return repository.findById(await ctx.allowedOrgs(), ref.id);
    },
    async changes(ctx, args) {
      const caller = await ctx.auth.require(args.apiKey);
      return feed.read(caller.orgId, args);
    },
  };
}

/** The tombstones of a directory's removed records (`<resource>_tombstones`). */
export const directoryTombstones = (connection: Connection, resource: string) =>
  new Tombstones(connection, `${resource}_tombstones`);

/**
 * Starts a directory subgraph (contacts, accounts) over its repository and the tombstones of its removed
 * records (`<name>_tombstones`, purged after CHANGES_KEPT_MS).
 */
export function startDirectorySubgraph<D extends OrgScopedDocument, T, C extends SubgraphContext = SubgraphContext>(
  definition: {
    name: string;
    schemaPath: string;
    createRepository(connection: Connection): OrgScopedRepository<D, T>;
    /**
     * The service's resolvers, typed from its own SDL, the per-request state (loaders) they use, its admin
     * schema, and what else the service runs over its connection (exports: routes and a worker to close).
     */
    wire(
      records: DirectoryRecords<D, T>,
      connection: Connection,
    ): Promise<{
      resolvers: SubgraphResolvers;
      extendContext?: (base: SubgraphContext, headers: IncomingHttpHeaders) => C;
      admin?: AdminSchema;
      routes?: Record<string, RouteHandler>;
      close?: () => Promise<void>;
    }>;
  },
  config: ServiceConfig,
  logger: Logger,
): Promise<RunningSubgraph> {
  return startSubgraph<C>(
    {
      name: definition.name,
      schemaPath: definition.schemaPath,
      async setUp(connection) {
        const repository = definition.createRepository(connection);
        const tombstones = directoryTombstones(connection, definition.name);
        await Promise.all([repository.ensureIndexes(), tombstones.ensureIndexes()]);
        const purge = () =>
          void tombstones.purge().catch((error: unknown) => logger.warn({ err: error }, 'tombstone purge failed'));
        purge();
        const purgeTimer = setInterval(purge, TOMBSTONE_PURGE_INTERVAL_MS);
        purgeTimer.unref();
        const wired = await definition.wire({ repository, tombstones }, connection);
        return {
          ...wired,
          close: async () => {
            clearInterval(purgeTimer);
            await wired.close?.();
          },
        };
      },
    },
    config,
    logger,
  );
}
