import type { IncomingHttpHeaders } from 'node:http';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { OrgScopedDocument, OrgScopedRepository } from './data/orgScopedRepository';
import { notFound } from './errors';
import { toPage } from './pagination';
import type { Logger } from './logger';
import type { Connection } from './mongo';
import { startSubgraph, type RunningSubgraph, type ServiceConfig, type SubgraphContext } from './subgraph';

interface DirectoryNames {
  /** e.g. contactItems */
  listField: string;
  /** e.g. contactItem */
  itemField: string;
  /** e.g. ContactItem */
  typeName: string;
  /** e.g. "Contact not found" */
  notFoundMessage: string;
}

interface ListArgs {
  apiKey: string;
  skip?: number | null;
  take?: number | null;
  search?: string | null;
}

/** The read-only public API of a directory (contacts, accounts): a searchable list, one by id, entities. */
export function directoryResolvers<D extends OrgScopedDocument, T>(
  names: DirectoryNames,
  repository: OrgScopedRepository<D, T>,
): GraphQLResolverMap<SubgraphContext> {
  return {
    Query: {
      [names.listField]: async (_: unknown, args: ListArgs, ctx: SubgraphContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        return repository.search(caller.orgId, args.search, toPage(args));
      },
      [names.itemField]: async (_: unknown, args: { apiKey: string; id: string }, ctx: SubgraphContext) => {
        const caller = await ctx.auth.require(args.apiKey);
        const item = await repository.findById(caller.orgId, args.id);
        if (!item) throw notFound(names.notFoundMessage);
        return item;
      },
    },
    [names.typeName]: {
      __resolveReference: async (ref: { id: string }, ctx: SubgraphContext) =>
        repository.findById(await ctx.allowedOrgs(), ref.id),
    },
  };
}

/** What a directory adds to the read-only API: fields it contributes to other services' entities. */
export interface DirectoryExtension<C extends SubgraphContext> {
  resolvers: GraphQLResolverMap<C>;
  /** Per-request state (DataLoaders) the added resolvers use. */
  extendContext(base: SubgraphContext, headers: IncomingHttpHeaders): C;
}

/** Adds resolvers type by type, so an extension may add fields to the directory's own type. */
function mergeResolvers<C>(base: GraphQLResolverMap<C>, added: GraphQLResolverMap<C>): GraphQLResolverMap<C> {
  const merged: GraphQLResolverMap<C> = { ...base };
  for (const [type, fields] of Object.entries(added)) merged[type] = { ...(base[type] as object), ...(fields as object) } as GraphQLResolverMap<C>[string];
  return merged;
}

/** Starts a read-only directory subgraph (contacts, accounts) over its repository. */
export function startDirectorySubgraph<D extends OrgScopedDocument, T, C extends SubgraphContext = SubgraphContext>(
  definition: {
    schemaPath: string;
    names: DirectoryNames;
    createRepository(connection: Connection): OrgScopedRepository<D, T>;
    extend?(repository: OrgScopedRepository<D, T>): DirectoryExtension<C>;
  },
  config: ServiceConfig,
  logger: Logger,
): Promise<RunningSubgraph> {
  return startSubgraph<C>(
    {
      name: definition.names.listField.replace(/Items$/, 's'),
      schemaPath: definition.schemaPath,
      async setUp(connection) {
        const repository = definition.createRepository(connection);
        await repository.ensureIndexes();
        const resolvers = directoryResolvers(definition.names, repository) as GraphQLResolverMap<C>;
        const extension = definition.extend?.(repository);
        if (!extension) return { resolvers };
        return { resolvers: mergeResolvers(resolvers, extension.resolvers), extendContext: extension.extendContext };
      },
    },
    config,
    logger,
  );
}
