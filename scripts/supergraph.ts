import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

const root = path.resolve(__dirname, '..');

export const SUPERGRAPH_PATH = path.join(root, 'supergraph.graphql');

/** The subgraphs and their default URLs; the gateway can point each elsewhere through its config. */
export const SUBGRAPHS = [
  { name: 'feedback', url: 'http://localhost:4001/graphql', schema: 'services/feedback/src/schema.graphql' },
  { name: 'contacts', url: 'http://localhost:4002/graphql', schema: 'services/contacts/src/schema.graphql' },
  { name: 'accounts', url: 'http://localhost:4003/graphql', schema: 'services/accounts/src/schema.graphql' },
] as const;

/** Composes the subgraph SDL files; throws with every composition error when they do not fit. */
export function composeSupergraph(): string {
  const result = composeServices(
    SUBGRAPHS.map(({ name, url, schema }) => ({
      name,
      url,
      typeDefs: parse(readFileSync(path.join(root, schema), 'utf8')),
    })),
  );
  if (result.errors) {
    throw new Error(`Composition failed:\n${result.errors.map((error) => `  - ${error.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}
