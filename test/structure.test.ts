import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importGraph, type ImportEdge } from './helpers/importGraph';

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
  const { name, exports } = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, string | { default?: string }>;
  };
  if (!exports) throw new Error(`${name} (${workspace}/package.json) has no exports`);
  return new Set(
    Object.values(exports)
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

  test('when the rule checks itself, then a deep import is not public', () => {
    expect(faces.get('shared')!.has('shared/src/errors.ts')).toBe(false);
    expect(faces.get('shared')!.has('shared/src/index.ts')).toBe(true);
  });
});
