import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * A file named on the command line, from where the command was typed (npm runs scripts from the root);
 * a missing one is named and the script ends, instead of a stack trace.
 */
export function givenPath(file: string): string {
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (!existsSync(path)) {
    console.error(`${path}: no such file`);
    process.exit(1);
  }
  return path;
}
