import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { apiChanges, isBreaking } from './schemaCheck';

const root = path.resolve(__dirname, '..');

export const SUPERGRAPH_PATH = path.join(root, 'supergraph.graphql');

/** The subgraphs and their default URLs; the gateway can point each elsewhere through its config. */
export const SUBGRAPHS = [
  { name: 'feedback', url: 'http://localhost:4001/graphql', schema: 'services/feedback/src/schema.graphql' },
  { name: 'contacts', url: 'http://localhost:4002/graphql', schema: 'services/contacts/src/schema.graphql' },
  { name: 'accounts', url: 'http://localhost:4003/graphql', schema: 'services/accounts/src/schema.graphql' },
  {
    name: 'integrations',
    url: 'http://localhost:4006/graphql',
    schema: 'services/integrations/src/schema.graphql',
  },
] as const;

/**
 * The admin API of the web application (POST /admin/graphql): the identity service's schema and the
 * services' admin schemas, composed into a supergraph of its own that the gateway ships with (it serves
 * the web application that uses it). Never part of the public API. The gateway calls each at the origin of
 * its configured URL (IDENTITY_URL, CONTACTS_URL, ...), path as here.
 */
export const ADMIN_SUPERGRAPH_PATH = path.join(root, 'gateway/src/admin/adminSupergraph.graphql');

export const ADMIN_SUBGRAPHS = [
  { name: 'identity', url: 'http://localhost:4004/graphql', schema: 'services/identity/src/schema.graphql' },
  { name: 'feedback', url: 'http://localhost:4001/admin/graphql', schema: 'services/feedback/src/admin.graphql' },
  { name: 'contacts', url: 'http://localhost:4002/admin/graphql', schema: 'services/contacts/src/admin.graphql' },
  { name: 'accounts', url: 'http://localhost:4003/admin/graphql', schema: 'services/accounts/src/admin.graphql' },
  {
    name: 'integrations',
    url: 'http://localhost:4006/admin/graphql',
    schema: 'services/integrations/src/admin.graphql',
  },
] as const;

type SubgraphList = ReadonlyArray<{ name: string; url: string; schema: string }>;

/** Each subgraph's SDL as it is in the repository. */
export function subgraphSdls(subgraphs: SubgraphList = SUBGRAPHS): Record<string, string> {
  return Object.fromEntries(subgraphs.map(({ name, schema }) => [name, readFileSync(path.join(root, schema), 'utf8')]));
}

/** Composes the subgraphs' SDL; throws with every composition error when they do not fit. */
export function composeSupergraph(
  sdls: Record<string, string> = subgraphSdls(),
  subgraphs: SubgraphList = SUBGRAPHS,
): string {
  const result = composeServices(subgraphs.map(({ name, url }) => ({ name, url, typeDefs: parse(sdls[name]) })));
  if (result.errors) {
    throw new Error(`Composition failed:\n${result.errors.map((error) => `  - ${error.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}

/** The admin supergraph as composed from the repository's schemas now. */
export const composeAdminSupergraph = () => composeSupergraph(subgraphSdls(ADMIN_SUBGRAPHS), ADMIN_SUBGRAPHS);

export interface ComposeOptions {
  allowBreaking: boolean;
  supergraphPath: string;
  sdls: Record<string, string>;
  log: (line: string) => void;
}

/**
 * `npm run compose`: composes, compares the public API with the supergraph at `supergraphPath`, prints
 * every change with its subgraphs, and writes the new supergraph unless a change is breaking and
 * `allowBreaking` is off. Returns the exit code.
 */
export async function composeAndCheck(options: ComposeOptions): Promise<number> {
  const composed = composeSupergraph(options.sdls);
  if (existsSync(options.supergraphPath)) {
    const changes = await apiChanges(readFileSync(options.supergraphPath, 'utf8'), composed, options.sdls);
    for (const change of changes) {
      options.log(
        `${change.level.padEnd(13)} ${change.message} (subgraph: ${change.subgraphs.join(', ') || 'unknown'})`,
      );
    }
    const breaking = changes.filter(isBreaking);
    if (breaking.length > 0 && !options.allowBreaking) {
      options.log(
        `Refused: ${breaking.length} breaking change(s) to the public API; ${options.supergraphPath} is unchanged. ` +
          'Make the change additive, or pass --allow-breaking (npm run compose -- --allow-breaking) once clients are ready.',
      );
      return 1;
    }
  }
  writeFileSync(options.supergraphPath, composed);
  options.log(`Wrote ${options.supergraphPath}`);
  return 0;
}
