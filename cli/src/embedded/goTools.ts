import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Tools built once per machine live here, outside any clone, so every checkout and CI run reuses them. */
export function machineCachePath(name: string): string {
  const cacheRoot = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  return path.join(cacheRoot, 'feedback-intelligence', name);
}

/** The Go command, wherever the machine has it. */
export async function findGo(purpose: string): Promise<string> {
  for (const candidate of ['go', '/usr/local/go/bin/go', '/usr/lib/go/bin/go']) {
    try {
      await run(candidate, ['version']);
      return candidate;
    } catch {
      // try the next place
    }
  }
  throw new Error(`Go was not found: ${purpose}`);
}

/** A tool already there: the one `envVar` names (which must exist), else the per-machine cache, else null. */
export function installedTool(envVar: string, cached: string): string | null {
  const configured = process.env[envVar];
  if (configured) {
    if (!existsSync(configured)) throw new Error(`${envVar}=${configured} does not exist`);
    return configured;
  }
  return existsSync(cached) ? cached : null;
}
