import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importCircles, importGraph, type ImportEdge } from './helpers/importGraph';

const ROOT = path.resolve(__dirname, '..');
const WORKSPACES = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;
const SKIPPED = new Set(['node_modules', 'dist', '.peers', '.data']);

function typescriptFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : typescriptFiles(child);
    return entry.name.endsWith('.ts') ? [child] : [];
  });
}

const workspaceOf = (file: string) => WORKSPACES.find((workspace) => file.startsWith(`${workspace}/`)) ?? null;

/** The files a workspace lets others import: the `default` (source) target of each of its `exports`. */
function publicFiles(workspace: string): Set<string> {
  const { name, exports: entries } = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, string | { default?: string }>;
  };
  if (!entries) throw new Error(`${name} (${workspace}/package.json) has no exports`);
  return new Set(
    Object.values(entries)
      .map((target) => (typeof target === 'string' ? target : target.default))
      .filter((target): target is string => !!target?.endsWith('.ts'))
      .map((target) => path.join(workspace, target)),
  );
}

/** Mongoose and the driver under it: a workspace's code reaches the database through its data layer only. */
const DATABASE_PACKAGES = ['mongoose', 'mongodb'];
const isDatabasePackage = (specifier: string) => DATABASE_PACKAGES.includes(specifier.split('/')[0]);
/** Below the data layers: the CLI's wait for a starting database (the connection itself is shared/src/data/mongo.ts). */
const DATABASE_INFRASTRUCTURE = new Set(['cli/src/embedded/waitForMongo.ts']);

/**
 * Whether the import names mongoose or the driver (a subpath too) from a workspace's `src/` outside its
 * `src/data/`. Tests, benchmarks and scripts are left out: they read and seed the databases directly.
 */
function databaseOutsideData(edge: ImportEdge): boolean {
  const workspace = workspaceOf(edge.from);
  if (!workspace || !edge.from.startsWith(`${workspace}/src/`) || edge.from.startsWith(`${workspace}/src/data/`))
    return false;
  return isDatabasePackage(edge.specifier) && !DATABASE_INFRASTRUCTURE.has(edge.from);
}

/**
 * The chains of imports, each loaded at run time, by which a file under `from` reaches mongoose or the
 * driver ("a.ts > b.ts > mongoose"); empty when none does. Type-only imports load nothing and are not followed.
 */
function databaseChains(edges: ImportEdge[], from: string): string[] {
  const loads = new Map<string, ImportEdge[]>();
  for (const edge of edges) if (!edge.typeOnly) loads.set(edge.from, [...(loads.get(edge.from) ?? []), edge]);
  const chains: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of loads.get(file) ?? []) {
      if (isDatabasePackage(edge.specifier)) chains.push([...chain, file, edge.specifier].join(' > '));
      else if (edge.to) walk(edge.to, [...chain, file]);
    }
  };
  for (const file of loads.keys()) if (file.startsWith(from)) walk(file, []);
  return chains;
}

describe('the structure of the code', () => {
  const files = ['test', 'bench', 'scripts', ...WORKSPACES].flatMap(typescriptFiles);
  const edges = importGraph(ROOT, files);
  const faces = new Map(WORKSPACES.map((workspace) => [workspace, publicFiles(workspace)]));

  test('when a file uses another workspace, then it imports that workspace by package name and only what its exports list', () => {
    const deep = (edge: ImportEdge) => {
      const target = edge.to && workspaceOf(edge.to);
      if (!target || target === workspaceOf(edge.from)) return false;
      return !edge.specifier.startsWith('@fi/') || !faces.get(target)!.has(edge.to!);
    };
    expect(edges.filter(deep).map(({ from, specifier }) => `${from} imports ${specifier}`)).toEqual([]);
  });

  test('when the imports that load modules are followed, then no file depends on itself through others', () => {
    expect(importCircles(edges)).toEqual([]);
  });

  test('when a workspace file imports mongoose or mongodb, at run time or for types only, then it is in a src/data/ folder or is the connection or the database wait', () => {
    expect(edges.filter(databaseOutsideData).map(({ from, specifier }) => `${from} imports ${specifier}`)).toEqual([]);
  });

  test('when the imports the gateway loads are followed into shared, then none reaches mongoose or the driver', () => {
    expect(databaseChains(edges, 'gateway/src/')).toEqual([]);
  });

  test('when the gateway rule checks itself, then a chain through shared is found, a type-only import and @fi/shared/database unused are not', () => {
    const edge = (from: string, specifier: string, to: string | null, typeOnly = false): ImportEdge => ({
      from,
      specifier,
      to,
      typeOnly,
    });
    const graph = [
      edge('gateway/src/server.ts', '@fi/shared', 'shared/src/index.ts'),
      edge('shared/src/index.ts', './export/exportDownload', 'shared/src/export/exportDownload.ts'),
      edge('shared/src/export/exportDownload.ts', 'mongoose', null),
      edge('gateway/src/context.ts', 'mongodb', null, true),
      edge('shared/src/database.ts', 'mongoose', null),
    ];
    expect(databaseChains(graph, 'gateway/src/')).toEqual([
      'gateway/src/server.ts > shared/src/index.ts > shared/src/export/exportDownload.ts > mongoose',
    ]);
    // The real graph: the database face loads mongoose, so the rule above is not passing for want of edges.
    expect(databaseChains(edges, 'shared/src/database.ts')).not.toEqual([]);
  });

  test('when the rules check themselves, then a deep import is not public and a circle is found, a type-only one not', () => {
    expect(faces.get('shared')!.has('shared/src/errors.ts')).toBe(false);
    expect(faces.get('shared')!.has('shared/src/index.ts')).toBe(true);
    const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, specifier: to, to, typeOnly });
    expect(importCircles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts')])).toEqual([
      ['a.ts', 'b.ts', 'c.ts'],
    ]);
    expect(importCircles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', true)])).toEqual([]);
  });

  test('when the database rule checks itself, then type-only imports and import() types are found outside data/, and neither data/ nor a package named like the driver is', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'structure-'));
    try {
      const file = 'services/feedback/src/domain/usesDatabase.ts';
      mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      writeFileSync(
        path.join(root, file),
        "import type { Connection } from 'mongoose';\nexport type Database = import('mongodb').Db;\n",
      );
      expect(
        importGraph(root, [file])
          .filter(databaseOutsideData)
          .map(({ specifier, typeOnly }) => [specifier, typeOnly]),
      ).toEqual([
        ['mongoose', true],
        ['mongodb', true],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const edge = (from: string, specifier: string): ImportEdge => ({ from, specifier, to: null, typeOnly: false });
    expect(databaseOutsideData(edge('services/feedback/src/data/store.ts', 'mongoose'))).toBe(false);
    expect(databaseOutsideData(edge('shared/src/config.ts', 'mongodb-connection-string-url'))).toBe(false);
    expect(databaseOutsideData(edge('shared/src/data/mongo.ts', 'mongoose'))).toBe(false);
    expect(databaseOutsideData(edge('services/identity/src/domain/keyMigration.ts', 'mongodb/lib/bson'))).toBe(true);
  });
});
