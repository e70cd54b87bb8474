import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { codegen } from '@graphql-codegen/core';
import * as add from '@graphql-codegen/add';
import * as typescript from '@graphql-codegen/typescript';
import * as typescriptResolvers from '@graphql-codegen/typescript-resolvers';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildASTSchema, lexicographicSortSchema, parse } from 'graphql';
import { codegenConfig } from './codegenConfig';

const PLUGINS = { add, typescript, 'typescript-resolvers': typescriptResolvers };

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

// An optional folder to generate into instead of the repository (the stale-output test uses one).
if (require.main === module) {
  generateResolverTypes(process.argv[2]).then(
    (files) => console.log(`Generated ${files.map((file) => path.relative(process.cwd(), file)).join(', ')}`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
