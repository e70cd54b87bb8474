import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
 * Whether the import names mongoose or the driver (a subpath too) from a workspace's `src/` outside a
 * `data/` folder (the core's, or a feature's store). Tests, benchmarks and scripts are left out: they read
 * and seed the databases directly.
 */
function databaseOutsideData(edge: ImportEdge): boolean {
  const workspace = workspaceOf(edge.from);
  if (!workspace || !edge.from.startsWith(`${workspace}/src/`) || edge.from.split('/').includes('data')) return false;
  return isDatabasePackage(edge.specifier) && !DATABASE_INFRASTRUCTURE.has(edge.from);
}

/**
 * Where a file of a service stands: its service, and the folder of `src/` it is in (null for the files
 * right in `src/`, which put the service together: server, main, worker, resolvers, config...). The core
 * is `core/` where a service has one, else its own records' `domain/`, `data/` and `model/`; generated
 * types (`generated/`) and ambient declarations (`types/`) are outside the rules.
 */
interface Place {
  service: string;
  folder: string | null;
  inCore: boolean;
  /** In a `data/` folder of a feature (a feature's store) rather than of the core. */
  featureStore: boolean;
}

const SERVICE_FOLDERS = /^(services\/[^/]+)\/src\/(.*)$/;
const OUTSIDE_RULES = new Set(['generated', 'types']);
const OWN_RECORDS = new Set(['domain', 'data', 'model']);

function placeOf(file: string, hasCoreFolder: (service: string) => boolean): Place | null {
  const match = SERVICE_FOLDERS.exec(file);
  if (!match) return null;
  const [, service, rest] = match;
  const parts = rest.split('/');
  const folder = parts.length > 1 ? parts[0] : null;
  if (folder && OUTSIDE_RULES.has(folder)) return null;
  const inCore = folder !== null && (hasCoreFolder(service) ? folder === 'core' : OWN_RECORDS.has(folder));
  return { service, folder, inCore, featureStore: !inCore && parts.length > 2 && parts[1] === 'data' };
}

/** The face of a folder: its index.ts; the core's stores' face is core/data/index.ts. */
const faceOf = (service: string, folder: string) => `${service}/src/${folder}/index.ts`;
const CORE_DATA_FACE = (service: string) => `${service}/src/core/data/index.ts`;

/**
 * The folder rules of every service (see services/feedback/README.md): the core imports no feature (nor the
 * change stream, nor the files that put the service together); a feature's store imports only its own
 * store and the core; a folder is entered only through its face (index.ts) from anywhere else (the core
 * where it has one: `core/index.ts`, and `core/data/index.ts` for stores); data never imports domain. Each
 * violation is one line.
 */
export function folderRuleViolations(edges: ImportEdge[], hasCoreFolder: (service: string) => boolean): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    if (!edge.to) continue;
    const from = placeOf(edge.from, hasCoreFolder);
    const to = placeOf(edge.to, hasCoreFolder);
    if (!from || !to || from.service !== to.service) continue;
    const line = (rule: string) => found.push(`${edge.from} imports ${edge.to}: ${rule}`);
    if (from.inCore && !to.inCore) line('the core imports no feature');
    if (from.featureStore && !to.inCore && !(to.folder === from.folder && to.featureStore))
      line("a feature's store imports only its own store and the core");
    if (to.folder !== null && to.folder !== from.folder && !(from.inCore && to.inCore)) {
      const coreFace = to.inCore && hasCoreFolder(to.service);
      const faces = coreFace
        ? [faceOf(to.service, 'core'), ...(from.featureStore ? [CORE_DATA_FACE(to.service)] : [])]
        : to.inCore
          ? null
          : [faceOf(to.service, to.folder)];
      if (faces && !faces.includes(edge.to)) line(`a folder is entered through its face (${faces.join(' or ')})`);
    }
    if (edge.from.split('/').includes('data') && edge.to.split('/').includes('domain'))
      line('data never imports domain');
  }
  return found;
}

/**
 * The import circles between the folders of each service (its root files each on their own, the core's
 * parts apart), type-only imports included: a folder drawing of the service then has no arrow running back up.
 */
export function folderCircles(edges: ImportEdge[], hasCoreFolder: (service: string) => boolean): string[][] {
  const node = (file: string) => {
    const place = placeOf(file, hasCoreFolder);
    if (!place) return null;
    if (place.folder === null) return file;
    const parts = file.split('/');
    const depth = place.folder === 'core' && parts.length > 5 ? 5 : 4;
    return parts.slice(0, depth).join('/');
  };
  const folderEdges: ImportEdge[] = [];
  for (const edge of edges) {
    const from = node(edge.from);
    const to = edge.to && node(edge.to);
    if (from && to && from !== to) folderEdges.push({ from, specifier: to, to, typeOnly: false });
  }
  return importCircles(folderEdges);
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

  test('when a workspace file imports mongoose or mongodb, at run time or for types only, then it is in a data/ folder (the core or a feature store) or is the database wait', () => {
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

  const hasCoreFolder = (service: string) => existsSync(path.join(ROOT, service, 'src', 'core', 'index.ts'));
  const serviceEdges = edges.filter((edge) => edge.from.startsWith('services/'));

  test('when the folders of each service are followed, then the core imports no feature, stores only the core, folders meet through their faces and data never imports domain', () => {
    expect(folderRuleViolations(serviceEdges, hasCoreFolder)).toEqual([]);
  });

  test('when the imports between the folders of each service are followed (types too), then no folder depends on itself through others', () => {
    expect(folderCircles(serviceEdges, hasCoreFolder)).toEqual([]);
  });

  test('when the folder rules check themselves, then each broken rule is found, and what they allow is not', () => {
    const withCore = (service: string) => service === 'services/feedback';
    const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, specifier: to, to, typeOnly });
    const f = (file: string) => `services/feedback/src/${file}`;
    const broken = [
      edge(f('core/domain/addFeedback.ts'), f('webhooks/index.ts')),
      edge(f('core/data/countStore.ts'), f('changes/index.ts'), true),
      edge(f('core/model/events.ts'), f('server.ts')),
      edge(f('themes/data/themeStore.ts'), f('themes/themeClustering.ts')),
      edge(f('themes/data/themeStore.ts'), f('search/index.ts')),
      edge(f('insights/feedbackInsights.ts'), f('themes/data/themeStore.ts')),
      edge(f('insights/feedbackInsights.ts'), f('core/data/countStore.ts')),
      edge(f('insights/feedbackInsights.ts'), f('core/data/index.ts')),
      edge(f('server.ts'), f('webhooks/dispatcher.ts')),
      edge(f('core/data/feedbackList.ts'), f('core/domain/listFeedback.ts'), true),
      edge('services/contacts/src/data/contactModel.ts', 'services/contacts/src/domain/contactRules.ts'),
      edge('services/identity/src/domain/accountLinks.ts', 'services/identity/src/mail/linkMailer.ts', true),
    ];
    expect(folderRuleViolations(broken, withCore).map((line) => line.split(': ').slice(1).join(': '))).toEqual([
      'the core imports no feature',
      'the core imports no feature',
      'the core imports no feature',
      "a feature's store imports only its own store and the core",
      "a feature's store imports only its own store and the core",
      'a folder is entered through its face (services/feedback/src/themes/index.ts)',
      'a folder is entered through its face (services/feedback/src/core/index.ts)',
      'a folder is entered through its face (services/feedback/src/core/index.ts)',
      'a folder is entered through its face (services/feedback/src/webhooks/index.ts)',
      'data never imports domain',
      'data never imports domain',
      'the core imports no feature',
      'a folder is entered through its face (services/identity/src/mail/index.ts)',
    ]);
    const allowed = [
      edge(f('themes/data/themeStore.ts'), f('core/data/index.ts')),
      edge(f('themes/data/themeStore.ts'), f('themes/data/themeDays.ts')),
      edge(f('themes/themeWorker.ts'), f('themes/data/themeStore.ts')),
      edge(f('insights/feedbackInsights.ts'), f('themes/index.ts'), true),
      edge(f('core/domain/addFeedback.ts'), f('core/model/events.ts')),
      edge(f('server.ts'), f('core/index.ts')),
      edge('services/contacts/src/links/contactLinks.ts', 'services/contacts/src/data/contactRepository.ts'),
      edge('services/contacts/src/domain/contactRules.ts', 'services/contacts/src/model/contact.ts'),
    ];
    expect(folderRuleViolations(allowed, withCore)).toEqual([]);
    // A circle of folders, through a type-only import too; the same files' imports within one folder are none.
    expect(
      folderCircles(
        [
          edge(f('search/searchAnswers.ts'), f('core/index.ts')),
          edge(f('core/index.ts'), f('core/data/feedbackList.ts')),
          edge(f('core/data/feedbackList.ts'), f('search/index.ts'), true),
          edge(f('links/linkResolvers.ts'), f('links/lastInteraction.ts')),
          edge(f('links/lastInteraction.ts'), f('links/linkResolvers.ts')),
        ],
        withCore,
      ),
    ).toEqual([[f('core'), f('core/data'), f('search')]]);
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
