import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  from: string;
  /** As written in the source. */
  specifier: string;
  /** Repository-relative path of the file it resolves to; null for a package outside the repository. */
  to: string | null;
  /** Erased at compile time (`import type`, or every name imported `type`): no module is loaded. */
  typeOnly: boolean;
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  resolveJsonModule: true,
};

/**
 * Every import of every file, resolved the way TypeScript resolves it (workspace packages through their
 * node_modules links to the real files), so rules can be checked on what a file really depends on.
 */
export function importGraph(root: string, files: string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    const source = ts.createSourceFile(absolute, readFileSync(absolute, 'utf8'), ts.ScriptTarget.Latest, false);
    for (const { specifier, typeOnly } of moduleReferences(source)) {
      const resolved = ts.resolveModuleName(specifier, absolute, options, ts.sys).resolvedModule?.resolvedFileName;
      const real = resolved ? realpathSync(resolved) : null;
      const to = real && !real.includes(`${path.sep}node_modules${path.sep}`) ? path.relative(root, real) : null;
      edges.push({ from: file, specifier, to, typeOnly });
    }
  }
  return edges;
}

/**
 * Every module a file names: static imports and re-exports, `import()` and `require()` anywhere in it,
 * and `import('…')` types (erased, like `import type`).
 */
function moduleReferences(source: ts.SourceFile): Array<{ specifier: string; typeOnly: boolean }> {
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes =
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      found.push({
        specifier: node.moduleSpecifier.text,
        typeOnly: !!clause && (clause.isTypeOnly || (!clause.name && allNamedTypes)),
      });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const allTypes =
        !!clause &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((element) => element.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allTypes });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import circles among `edges` (strongly connected components of more than one file, or a file importing itself), at run time. */
export function importCircles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  // Only imports that load a module at run time: a type-only import is erased and cannot form a circle.
  for (const { from, to, typeOnly } of edges) if (to && !typeOnly) next.set(from, [...(next.get(from) ?? []), to]);
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
