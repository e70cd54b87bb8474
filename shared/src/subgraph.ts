import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { parse } from 'graphql';
import type { Authenticator } from './auth/authenticator';
import type { ConfigOf, serviceConfigSchema } from './config';
import type { RequestOutcome } from './http/graphqlHttpServer';
import type { Logger } from './logger';
import { DateTimeScalar, JSONScalar } from './scalars';

export type ServiceConfig = ConfigOf<ReturnType<typeof serviceConfigSchema>>;

export interface SubgraphContext {
  requestId: string;
  logger: Logger;
  outcome: RequestOutcome;
  /** The operation's callers, from the identity the gateway signed. */
  auth: Authenticator;
  /**
   * Organizations of the operation's callers; entity fetches (which carry no `apiKey` argument) are
   * scoped to them.
   */
  allowedOrgs(): Promise<Set<string>>;
}

/**
 * A service's resolver map. Each service types its own with the `Resolvers` generated from its SDL
 * (`npm run codegen`); Apollo's map type cannot express reference resolvers, so it is only named here.
 */
export type SubgraphResolvers = Record<string, unknown>;

/**
 * A service's admin schema (`src/admin.graphql`): the operations the web application's signed-in members
 * use, served at POST /admin/graphql beside the public /graphql and composed by the gateway into the admin
 * API. Its context holds only the signed-in member (`ctx.auth.member()`), never an API key.
 */
export interface AdminSchema {
  schemaPath: string;
  resolvers: SubgraphResolvers;
  /** Per-request state of the admin schema's resolvers (loaders), as the public schema's `extendContext`. */
  extendContext?: (base: SubgraphContext, headers: IncomingHttpHeaders) => SubgraphContext;
}

/** Where a service serves its admin schema. */
export const ADMIN_GRAPHQL_PATH = '/admin/graphql';

export function loadTypeDefs(schemaPath: string) {
  return parse(readFileSync(schemaPath, 'utf8'));
}

/** A federation subgraph schema from an SDL file and its resolvers (the DateTime and JSON scalars included). */
export function subgraphSchema(schemaPath: string, resolvers: SubgraphResolvers) {
  return buildSubgraphSchema({
    typeDefs: loadTypeDefs(schemaPath),
    resolvers: { DateTime: DateTimeScalar, JSON: JSONScalar, ...resolvers } as GraphQLResolverMap<unknown>,
  });
}
