import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  from: string;
  /** As written in the source. */
  specifier: string;
  /** Repository-relative path of the file it resolves to; null for a package outside the repository. */
  to: string | null;
}

const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, resolveJsonModule: true };

/**
 * Every import of every file, resolved the way TypeScript resolves it (workspace packages through their
 * node_modules links to the real files), so rules can be checked on what a file really depends on.
 */
export function importGraph(root: string, files: string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(absolute, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      const resolved = ts.resolveModuleName(specifier, absolute, options, ts.sys).resolvedModule?.resolvedFileName;
      const real = resolved ? realpathSync(resolved) : null;
      const to = real && !real.includes(`${path.sep}node_modules${path.sep}`) ? path.relative(root, real) : null;
      edges.push({ from: file, specifier, to });
    }
  }
  return edges;
}

/** The import circles among `edges` (strongly connected components of more than one file, or a file importing itself). */
export function importCircles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) if (to) next.set(from, [...(next.get(from) ?? []), to]);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  // Tarjan's algorithm; the graph is a few hundred files, so recursion depth is no concern.
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) circles.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return circles;
}
