import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importCircles, importGraph, type ImportEdge } from './helpers/importGraph';

const ROOT = path.resolve(__dirname, '..');
const WORKSPACES = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
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

  test('when the rules check themselves, then a deep import is not public and a circle is found, a type-only one not', () => {
    expect(faces.get('shared')!.has('shared/src/errors.ts')).toBe(false);
    expect(faces.get('shared')!.has('shared/src/index.ts')).toBe(true);
    const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, specifier: to, to, typeOnly });
    expect(importCircles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts')])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(importCircles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', true)])).toEqual([]);
  });
});
