import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { codegen } from '@graphql-codegen/core';
import * as add from '@graphql-codegen/add';
import * as typedDocumentNode from '@graphql-codegen/typed-document-node';
import * as typescript from '@graphql-codegen/typescript';
import * as typescriptOperations from '@graphql-codegen/typescript-operations';
import * as typescriptResolvers from '@graphql-codegen/typescript-resolvers';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildASTSchema, lexicographicSortSchema, parse, printSchema } from 'graphql';
import {
  ADMIN_SUPERGRAPH,
  codegenConfig,
  DASHBOARD_DOCUMENTS,
  dashboardOperationsConfig,
  GENERATED_OPERATIONS,
} from './codegenConfig';

const PLUGINS = {
  add,
  typescript,
  'typescript-resolvers': typescriptResolvers,
  'typescript-operations': typescriptOperations,
  'typed-document-node': typedDocumentNode,
};
const root = path.resolve(__dirname, '..');

/**
 * Generates each service's resolver types from its SDL with GraphQL Code Generator's library, without its
 * CLI: the CLI's loaders (URL, GitHub, Apollo Engine) are for schemas we never load and pull in packages
 * that need a newer Node than this project runs on.
 */
async function generateResolverTypes(baseDir?: string): Promise<string[]> {
  const written: string[] = [];
  for (const [filename, output] of Object.entries(codegenConfig(baseDir).generates)) {
    // As the CLI loads a schema: the SDL as written (federation directives need no definitions), sorted.
    const schemaAst = lexicographicSortSchema(
      buildASTSchema(parse(readFileSync(output.schema, 'utf8')), { assumeValidSDL: true }),
    );
    const content = await codegen({
      filename,
      schema: parse(printSchemaWithDirectives(schemaAst)),
      schemaAst,
      documents: [],
      plugins: output.plugins.map((plugin) => (typeof plugin === 'string' ? { [plugin]: {} } : plugin)),
      pluginMap: PLUGINS,
      config: output.config,
    });
    mkdirSync(path.dirname(filename), { recursive: true });
    writeFileSync(filename, content);
    written.push(filename);
  }
  return written;
}

/** Every `*.graphql` file under a folder, in a stable order. */
function graphqlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => path.join(dir, file));
}

/**
 * The web application's typed documents: each operation and fragment of its `.graphql` files, checked
 * against the admin API's schema as the gateway serves it, with its result and variables types.
 */
async function generateOperationTypes(baseDir = root): Promise<string> {
  const apiSchema = Supergraph.build(readFileSync(path.join(root, ADMIN_SUPERGRAPH), 'utf8'))
    .apiSchema()
    .toGraphQLJSSchema();
  const schemaAst = lexicographicSortSchema(apiSchema);
  const documents = graphqlFiles(path.join(root, DASHBOARD_DOCUMENTS)).map((file) => ({
    location: path.relative(root, file),
    document: parse(readFileSync(file, 'utf8')),
  }));
  const { plugins, config } = dashboardOperationsConfig();
  const filename = path.join(baseDir, GENERATED_OPERATIONS);
  const content = await codegen({
    filename,
    schema: parse(printSchema(schemaAst)),
    schemaAst,
    documents,
    plugins: plugins.map((plugin) => (typeof plugin === 'string' ? { [plugin]: {} } : plugin)),
    pluginMap: PLUGINS,
    config,
  });
  mkdirSync(path.dirname(filename), { recursive: true });
  writeFileSync(filename, content);
  return filename;
}

async function generateAll(baseDir?: string): Promise<string[]> {
  return [...(await generateResolverTypes(baseDir)), await generateOperationTypes(baseDir)];
}

// An optional folder to generate into instead of the repository (the stale-output test uses one).
if (require.main === module) {
  generateAll(process.argv[2]).then(
    (files) => console.log(`Generated ${files.map((file) => path.relative(process.cwd(), file)).join(', ')}`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
