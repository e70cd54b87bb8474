import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildDashboard } from '@fi/cli';

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, '.build');

/** Every workspace with code: each gets `dist/`, the compiled mirror of its `src/` (what `exports` names for production). */
function workspaces(): string[] {
  const services = readdirSync(path.join(ROOT, 'services')).map((name) => `services/${name}`);
  return ['shared', 'gateway', 'cli', ...services].filter((dir) => existsSync(path.join(ROOT, dir, 'src')));
}

/** Copies what `tsc` does not emit but the code reads beside itself at run time (each subgraph's SDL, the FerretDB patch's Go file). */
function copyAssets(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyAssets(source, path.join(to, entry.name));
    else if (entry.name.endsWith('.graphql') || entry.name.endsWith('.go')) cpSync(source, path.join(to, entry.name));
  }
}

/**
 * One `tsc` program for all workspaces (the same strict options as `npm run typecheck`), emitted into
 * `.build/`, then each workspace's part moved to its own `dist/` so that `src/x.ts` becomes `dist/x.js` and
 * paths relative to a file (`../../supergraph.graphql`) stay right.
 */
function build(): void {
  rmSync(OUT, { recursive: true, force: true });
  for (const dir of workspaces()) rmSync(path.join(ROOT, dir, 'dist'), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
  for (const dir of workspaces()) {
    renameSync(path.join(OUT, dir, 'src'), path.join(ROOT, dir, 'dist'));
    copyAssets(path.join(ROOT, dir, 'src'), path.join(ROOT, dir, 'dist'));
  }
  rmSync(OUT, { recursive: true, force: true });
}

async function main(): Promise<void> {
  try {
    build();
    // The web application is bundled by Vite (not tsc) into dashboard/dist, which the gateway serves.
    await buildDashboard();
    console.log(`Built ${[...workspaces(), 'dashboard'].map((dir) => `${dir}/dist`).join(', ')}`);
  } catch (error) {
    console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

void main();
