import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findGo, installedTool, machineCachePath } from './goTools';
import { waitForMongo } from './waitForMongo';
import { stopChild } from './stopChild';

const run = promisify(execFile);

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';

export type Say = (message: string) => void;

/** Replaces `from` (present exactly once) with `to` in `file`; with `from` empty, writes `to` as a new file. */
interface SourcePatch {
  file: string;
  from: string;
  to: string;
}

/** A Go file of ours (beside this one) added to FerretDB's source as `file`. */
const newGoFile = (file: string, source: string): SourcePatch => ({
  file,
  from: '',
  to: readFileSync(path.join(__dirname, source), 'utf8'),
});

const SQLITE_COLLECTION = 'internal/backends/sqlite/collection.go';
/** Query's and Explain's `_id` pushdown under `condition`, as v1.24.2 writes them (Explain's sets its flag first). */
const idPushdown = (condition: string, firstLine: string) =>
  `\tif ${condition} {\n\t\tv, _ := params.Filter.Get("_id")\n\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n\t\t\t${firstLine}`;
const LONE_FILTER = 'params.Filter.Len() == 1';
const ID_NAMED_ONCE = 'namesIDOnce(params.Filter)';

/**
 * What the embedded build changes in FerretDB v1.24.2's SQLite backend, so that `_id` is the primary-key
 * lookup the services rely on:
 * - It indexes `_id` as `_ferretdb_sjson->"_id"` but filtered a lone `_id` on `_ferretdb_sjson->'$._id'`:
 *   the same value, yet not the indexed expression, so SQLite scanned the collection until the document
 *   turned up (the newest of 100,000 feedback items: about a second). The filter now uses the indexed
 *   expression.
 * - It pushed `_id` down only when it was the filter's one key, so a conditional write by id
 *   (`{ _id, key: { $exists: false } }`, as the backfills write) read the whole collection. `_id` now
 *   narrows the read whenever the filter names it once. `_id` is unique, so no document the whole
 *   filter matches is left out, and FerretDB applies the whole filter to the rows read either way.
 *   Explain shows the same narrowed plan and still reports a full pushdown only for a lone `_id`.
 * - An `update` command held every statement's read open until the whole command returned (a `defer`
 *   inside its loop), each on a connection of the database's pool of 100: a bulk write of about 100
 *   updates (a theme computation's batch, a seed's counts) took every connection and then waited for one
 *   more to write, so it, and every later request to that database, hung until the client gave up. Each
 *   statement's read is now closed once the statement is done, as `delete` already does.
 * A hash of all patches names the cached binary: a build without them is never mistaken for one with them.
 */
const MSG_UPDATE = 'internal/handler/msg_update.go';
const MSG_COUNT = 'internal/handler/msg_count.go';
const MSG_AGGREGATE = 'internal/handler/msg_aggregate.go';

/**
 * Filter, sort and limit pushdown to SQLite (the Go file beside this one says how): without it every read
 * but one by `_id` reads the whole collection (at 100,000 feedback items a page took tens of seconds).
 * - `fi_pushdown.go` (new): translates equality, `$in`, null, date and ObjectId ranges, `$and` and `$or` of
 *   top-level fields to a WHERE clause over the same expressions the indexes use, only where the field's
 *   recorded kinds make SQL select every match; ORDER BY and LIMIT only when the WHERE is exact. A `$in`
 *   becomes an IN list (an OR chain of over 1,000 values exceeded SQLite's expression depth: the query failed).
 * - `fi_elements.go` (new): keeps the string elements of the array fields a collection's indexes name in a
 *   table beside it, as MongoDB's multikey indexes do, so an equality on one (a theme's items) reads its
 *   documents by `_id` instead of testing every row the other conditions select.
 * - `QueryParams` gains `ExactSort` and `ExactLimit` (skip + limit), which `find` sets when the backend sees
 *   the whole filter (no dotted keys dropped): backends that ignore them read as before.
 * - The SQLite `Query` uses that pushdown when it applies (not for a filter naming one `_id`: that one row
 *   is read as before, without reading the kinds), else reads as before; `InsertAll` adds a table's kind
 *   trigger before its first documents (a table written before this build is read once, on its first
 *   query, to record its kinds: on a large table that query and the writes waiting behind it are slow) and
 *   records its documents' kinds in its transaction: computed in Go from the documents, where an insert
 *   trigger read each row's JSON again (it made a seed's inserts 1.3-1.7x slower); updates keep theirs.
 */
const QUERY_PUSHDOWN: SourcePatch[] = [
  newGoFile('internal/backends/sqlite/fi_pushdown.go', 'ferretdbPushdown.go'),
  newGoFile('internal/backends/sqlite/fi_elements.go', 'ferretdbElements.go'),
  {
    file: 'internal/backends/collection.go',
    from: 'type QueryParams struct {\n\tFilter *types.Document\n\tSort   *types.Document\n\tLimit  int64\n',
    to: [
      'type QueryParams struct {',
      '\tFilter *types.Document',
      '\tSort   *types.Document',
      '\tLimit  int64',
      '',
      "\t// ExactSort and ExactLimit (skip + limit) may be applied when the backend selects exactly Filter's matches.",
      '\tExactSort  *types.Document',
      '\tExactLimit int64',
      '',
      "\t// CountOnly: the caller only counts. A backend that selects exactly Filter's matches may then answer",
      '\t// one document without fields per match, and says so with QueryResult.Counted.',
      '\tCountOnly bool',
      '',
    ].join('\n'),
  },
  {
    file: 'internal/backends/collection.go',
    from: 'type QueryResult struct {\n\tIter types.DocumentsIterator\n}\n',
    to: "type QueryResult struct {\n\tIter types.DocumentsIterator\n\n\t// Counted: Iter holds exactly the matches of CountOnly's Filter, without their fields.\n\tCounted bool\n}\n",
  },
  {
    file: 'internal/handler/msg_find.go',
    from: '\th.L.DebugContext(ctx, fmt.Sprintf("Converted %+v for %+v to %+v.", params, cInfo, qp))\n',
    to: [
      '\tif !h.DisablePushdown && qp.Filter.Len() == params.Filter.Len() && params.Limit > 0 && params.Skip >= 0 {',
      '\t\tqp.ExactSort, qp.ExactLimit = params.Sort, params.Skip+params.Limit',
      '\t}',
      '',
      '\th.L.DebugContext(ctx, fmt.Sprintf("Converted %+v for %+v to %+v.", params, cInfo, qp))',
      '',
    ].join('\n'),
  },
  {
    file: SQLITE_COLLECTION,
    from: '\tmeta := c.r.CollectionGet(ctx, c.dbName, c.name)\n\n\terr := db.InTransaction(ctx, func(tx *fsql.Tx) error {\n',
    to: [
      '\tmeta := c.r.CollectionGet(ctx, c.dbName, c.name)',
      '',
      '\tif _, err := keepKinds(ctx, db, meta); err != nil {',
      '\t\treturn nil, lazyerrors.Error(err)',
      '\t}',
      '',
      '\terr := db.InTransaction(ctx, func(tx *fsql.Tx) error {',
      '\t\tif err := recordInserts(ctx, tx, meta.TableName, params.Docs); err != nil {',
      '\t\t\treturn lazyerrors.Error(err)',
      '\t\t}',
      '',
    ].join('\n'),
  },
  {
    file: SQLITE_COLLECTION,
    from: '\tq := prepareSelectClause(meta.TableName, params.Comment, meta.Capped(), params.OnlyRecordIDs)\n\n\tvar whereClause string\n',
    to: [
      '\tif q, args, counted, ok := pushdownQuery(ctx, db, meta, params); ok {',
      '\t\trows, err := db.QueryContext(ctx, q, args...)',
      '\t\tif err != nil {',
      '\t\t\treturn nil, lazyerrors.Error(err)',
      '\t\t}',
      '',
      '\t\treturn &backends.QueryResult{Iter: newQueryIterator(ctx, rows, params.OnlyRecordIDs || counted), Counted: counted}, nil',
      '\t}',
      '',
      '\tq := prepareSelectClause(meta.TableName, params.Comment, meta.Capped(), params.OnlyRecordIDs)',
      '',
      '\tvar whereClause string',
      '',
    ].join('\n'),
  },
];

/**
 * A count read every matching document into Go to filter and count it (0.6 s for an organization's 10,000
 * contacts). `fi_count.go` (new) says how the `count` command and a countDocuments pipeline now ask the
 * backend for one empty row per match when its WHERE is exact (see `CountOnly` above), and skip the filter
 * those rows already passed.
 */
const COUNT_PUSHDOWN: SourcePatch[] = [
  newGoFile('internal/handler/fi_count.go', 'ferretdbCount.go'),
  {
    file: MSG_COUNT,
    from: '\t\tqp.Filter = params.Filter\n',
    to: '\t\tqp.Filter = params.Filter\n\t\tqp.CountOnly = true\n',
  },
  {
    file: MSG_COUNT,
    from: '\titer = common.FilterIterator(iter, closer, params.Filter)\n',
    to: '\tif !queryRes.Counted {\n\t\titer = common.FilterIterator(iter, closer, params.Filter)\n\t}\n',
  },
  {
    file: MSG_AGGREGATE,
    from: '\t\tif sort, err = common.ValidateSortDocument(sort); err != nil {\n',
    to: [
      '\t\tif qp.Filter != nil && qp.Filter.Len() == filter.Len() && countsFirstMatch(aggregationStages) {',
      '\t\t\tqp.CountOnly = true',
      '\t\t}',
      '',
      '\t\tif sort, err = common.ValidateSortDocument(sort); err != nil {',
      '',
    ].join('\n'),
  },
  {
    file: MSG_AGGREGATE,
    from: '\titer := queryRes.Iter\n\n\tfor _, s := range p.stages {\n',
    to: [
      '\titer := queryRes.Iter',
      '',
      '\tstages := p.stages',
      '\tif queryRes.Counted {',
      "\t\tstages = stages[1:] // the rows are exactly the first $match's matches, without their fields",
      '\t}',
      '',
      '\tfor _, s := range stages {',
      '',
    ].join('\n'),
  },
];

/**
 * An update wrote each document it modified, and each upsert's new document, in a transaction of its own
 * (an `updateMany` of 500 kept-count cells, or a bulk write of 500 cell upserts: 500 commits).
 * `fi_update_batch.go` (new, which says how) writes an update command's documents in transactions of up to
 * 100, each statement still reading what the earlier ones wrote, the command answering once all are
 * written. The upserts' new documents go in the same transactions: `UpdateAllParams` gains `New`, and the
 * SQLite `UpdateAll` inserts the documents it marks in order with the updates (`fi_update_inserts.go`, new;
 * a duplicate `_id` fails as `InsertAll`'s does). A seed's new cells went from one commit each to one per
 * 100 (at 10,000 items their inserts were a quarter of FerretDB's CPU). FerretDB's own oplog, which nothing
 * here enables or reads, would log such an insert as an update.
 */
const SQLITE_UPDATE_ALL =
  '\terr := db.InTransaction(ctx, func(tx *fsql.Tx) error {\n\t\tfor _, doc := range params.Docs {\n';
const UPDATE_BATCH: SourcePatch[] = [
  newGoFile('internal/handler/common/fi_update_batch.go', 'ferretdbUpdateBatch.go'),
  newGoFile('internal/backends/sqlite/fi_update_inserts.go', 'ferretdbUpdateInserts.go'),
  {
    file: 'internal/backends/collection.go',
    from: 'type UpdateAllParams struct {\n\tDocs []*types.Document\n}\n',
    to: [
      'type UpdateAllParams struct {',
      '\tDocs []*types.Document',
      '',
      "\t// New[i] makes Docs[i] an insert (an update command's upsert) in the same transaction; only SQLite reads it.",
      '\tNew []bool',
      '}',
      '',
    ].join('\n'),
  },
  {
    file: SQLITE_COLLECTION,
    from: 'func (c *collection) UpdateAll(ctx context.Context, params *backends.UpdateAllParams) (*backends.UpdateAllResult, error) {\n',
    to: [
      'func (c *collection) UpdateAll(ctx context.Context, params *backends.UpdateAllParams) (*backends.UpdateAllResult, error) {',
      '\tif err := c.prepareNew(ctx, params); err != nil {',
      '\t\treturn nil, err',
      '\t}',
      '',
    ].join('\n'),
  },
  {
    file: SQLITE_COLLECTION,
    from: SQLITE_UPDATE_ALL,
    to: [
      '\terr := db.InTransaction(ctx, func(tx *fsql.Tx) error {',
      '\t\tfor i, doc := range params.Docs {',
      '\t\t\tif inserted, err := insertNew(ctx, tx, meta, params, i, doc); inserted || err != nil {',
      '\t\t\t\tif err != nil {',
      '\t\t\t\t\treturn err',
      '\t\t\t\t}',
      '',
      '\t\t\t\tcontinue',
      '\t\t\t}',
      '',
      '',
    ].join('\n'),
  },
  {
    file: 'internal/handler/common/update.go',
    from: 'func UpdateDocument(ctx context.Context, c backends.Collection, cmd string,',
    to: 'func updateDocuments(ctx context.Context, c backends.Collection, cmd string,',
  },
  {
    file: MSG_UPDATE,
    from: '\tmatched, modified, upserted, err := h.updateDocument(connCtx, params)\n',
    to: [
      '\tbatchCtx, batch := common.WithUpdateBatch(connCtx)',
      '\tmatched, modified, upserted, err := h.updateDocument(batchCtx, params)',
      '',
      '\tif ferr := batch.Flush(connCtx); ferr != nil && err == nil {',
      '\t\terr = ferr',
      '\t}',
      '',
    ].join('\n'),
  },
  {
    file: MSG_UPDATE,
    from: '\t\tres, err := c.Query(ctx, &qp)\n',
    to: '\t\tif err = common.FlushBefore(ctx, u.Filter); err != nil {\n\t\t\treturn 0, 0, nil, lazyerrors.Error(err)\n\t\t}\n\n\t\tres, err := c.Query(ctx, &qp)\n',
  },
];

/**
 * Resource tracking only in FerretDB's debug builds: a release build still put every iterator and
 * transaction in a pprof profile, which records the caller's stack on each `Track` (a stack walk per
 * query), and set a finalizer on it, to find leaks in FerretDB's own tests. That was 13-16% of its CPU
 * under a load of lookups by `_id` (a CPU profile of 20,000 `findOne`s, about 0.06 ms of the 0.43 ms each).
 */
const RESOURCE_TRACKING: SourcePatch[] = ['Track', 'Untrack'].map((name) => ({
  file: 'internal/util/resource/resource.go',
  from: `func ${name}(obj any, token *Token) {\n\tcheckArgs(obj, token)\n`,
  to: `func ${name}(obj any, token *Token) {\n\tif !debugbuild.Enabled {\n\t\treturn\n\t}\n\n\tcheckArgs(obj, token)\n`,
}));

/**
 * Writes atomic per document, as on MongoDB: `update`, `findAndModify` and `delete` run one at a time per
 * collection, from their read to their last write (`fi_write_locks.go`, new, says why), an update command
 * with its batch (UPDATE_BATCH). Measured before: 40 concurrent `$inc` of one document left it at 1; a
 * person's edit of an organization's themes beside the worker's release of its lease put the lease back.
 */
const underWriteLock = (...lines: string[]) =>
  [
    '\tunlock, err := lockCollection(connCtx, params.DB, params.Collection)',
    '\tif err != nil {',
    '\t\treturn nil, lazyerrors.Error(err)',
    '\t}',
    '',
    '\tdefer unlock()',
    '',
    ...lines,
    '',
  ].join('\n');
const BATCH_FLUSHED = '\tif ferr := batch.Flush(connCtx); ferr != nil && err == nil {\n\t\terr = ferr\n\t}\n';
const WRITE_LOCKS: SourcePatch[] = [
  newGoFile('internal/handler/fi_write_locks.go', 'ferretdbWriteLocks.go'),
  {
    file: MSG_UPDATE,
    from: '\tbatchCtx, batch := common.WithUpdateBatch(connCtx)\n',
    to: underWriteLock('\tbatchCtx, batch := common.WithUpdateBatch(connCtx)'),
  },
  { file: MSG_UPDATE, from: BATCH_FLUSHED, to: `${BATCH_FLUSHED}\n\tunlock()\n` },
  {
    file: 'internal/handler/msg_findandmodify.go',
    from: '\tres, err := h.findAndModifyDocument(connCtx, params)\n',
    to: underWriteLock('\tres, err := h.findAndModifyDocument(connCtx, params)', '\tunlock()'),
  },
  {
    file: 'internal/handler/msg_delete.go',
    from: '\tvar deleted int32\n\twriteErrors := types.MakeArray(0)\n',
    to: underWriteLock('\tvar deleted int32', '\twriteErrors := types.MakeArray(0)'),
  },
];

const PATCHES: SourcePatch[] = [
  ...QUERY_PUSHDOWN,
  ...COUNT_PUSHDOWN,
  ...UPDATE_BATCH,
  ...WRITE_LOCKS,
  ...RESOURCE_TRACKING,
  {
    file: MSG_UPDATE,
    from: '\t\tcloser := iterator.NewMultiCloser()\n\t\tdefer closer.Close()\n',
    to: '\t\tcloser := iterator.NewMultiCloser()\n',
  },
  {
    file: MSG_UPDATE,
    from: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
    to: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n\t\tcloser.Close()\n',
  },
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    from: `IDColumn = DefaultColumn + "->'$._id'"`,
    to: 'IDColumn = DefaultColumn + `->"_id"`',
  },
  {
    file: SQLITE_COLLECTION,
    from: idPushdown(LONE_FILTER, 'whereClause'),
    to: idPushdown(ID_NAMED_ONCE, 'whereClause'),
  },
  {
    file: SQLITE_COLLECTION,
    from: idPushdown(LONE_FILTER, 'filterPushdown = true'),
    to: idPushdown(ID_NAMED_ONCE, `filterPushdown = ${LONE_FILTER}`),
  },
  {
    file: SQLITE_COLLECTION,
    from: '// check interfaces\n',
    to: [
      '// namesIDOnce reports whether filter has exactly one _id key (a duplicated key cannot be read with Get).',
      'func namesIDOnce(filter *types.Document) bool {',
      '\tn := 0',
      '\tfor _, k := range filter.Keys() {',
      '\t\tif k == "_id" {',
      '\t\t\tn++',
      '\t\t}',
      '\t}',
      '',
      '\treturn n == 1',
      '}',
      '',
      '// check interfaces',
      '',
    ].join('\n'),
  },
];

/** Names the cached binary by every patch's text, so a build made from other patches is never reused. */
const PATCH_SET = createHash('sha256').update(JSON.stringify(PATCHES)).digest('hex').slice(0, 12);

export function ferretDbCachePath(): string {
  return machineCachePath(`ferretdb-${FERRETDB_VERSION}-patched-${PATCH_SET}`);
}

/**
 * The FerretDB binary: FERRETDB_BIN, else the per-machine cache, else built from the Go module proxy.
 * `go install ...@version` is not used because it also asks the proxy for the module's version list,
 * which some proxies refuse; downloading the exact version and building it needs only that version.
 * The module archive lacks the version file FerretDB's build expects, so it is written before building,
 * and the source patches are applied (see PATCHES).
 */
export async function ensureFerretDb(say: Say): Promise<string> {
  const target = ferretDbCachePath();
  const installed = installedTool('FERRETDB_BIN', target);
  if (installed) return installed;

  const go = await findGo('FerretDB is not installed; install Go, or set MONGODB_URI to a MongoDB server');
  say(
    `Building FerretDB ${FERRETDB_VERSION} with Go into ${target} (first run on this machine only; about 2-4 minutes)...`,
  );
  const started = Date.now();
  const { stdout } = await run(go, ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const moduleDir = (JSON.parse(stdout) as { Dir: string }).Dir;
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'ferretdb-src-'));
  try {
    cpSync(moduleDir, buildDir, { recursive: true });
    makeWritable(buildDir);
    writeFileSync(path.join(buildDir, 'build/version/version.txt'), `${FERRETDB_VERSION}\n`);
    applyPatches(buildDir);
    mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.partial-${process.pid}`;
    await run(go, ['build', '-o', partial, './cmd/ferretdb'], { cwd: buildDir, maxBuffer: 64 * 1024 * 1024 });
    renameSync(partial, target);
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
  say(`FerretDB built in ${Math.round((Date.now() - started) / 1000)} s.`);
  return target;
}

function applyPatches(buildDir: string): void {
  for (const { file, from, to } of PATCHES) {
    const full = path.join(buildDir, file);
    if (from === '') {
      writeFileSync(full, to);
      continue;
    }
    const source = readFileSync(full, 'utf8');
    // Exactly once: a second match would mean the source is not the one these patches were written for.
    if (source.split(from).length !== 2)
      throw new Error(
        `FerretDB ${FERRETDB_VERSION}: ${file} does not have \`${from.split('\n')[0].trim()}\` exactly once to patch`,
      );
    writeFileSync(full, source.replace(from, to));
  }
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) makeWritable(full);
    else chmodSync(full, 0o644);
  }
}

export interface EmbeddedMongo {
  uri: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * SQLite's statement journals (the pages a statement changed, kept to undo it alone: every insert of many
 * documents, every write that fires the kind triggers) spill to a temporary file past 64 KiB; in memory
 * they cost no write calls (8% of FerretDB's CPU during a seed, with the files' other writes 13%).
 * Checkpoints every 10,000 pages of WAL (40 MB) rather than 1,000: an index page rewritten by many commits
 * is copied into the database once per checkpoint, not once per 4 MB of WAL (checkpoints took 7% of
 * FerretDB's CPU in a seed; a seed of 100,000 items 83 s of its CPU, now 74 s). Commits are as durable as
 * before: a checkpoint only moves committed pages from the WAL into the database file.
 */
const SQLITE_URL_PARAMS = '?_pragma=temp_store(memory)&_pragma=wal_autocheckpoint(10000)';

/**
 * Documents per insert transaction (and per INSERT statement): FerretDB's own option, 100 by default, so a
 * seed's 100,000 items took 1,000 commits, each writing the pages of the items' 12 indexes it changed to the
 * WAL and syncing it. At 1,000 an index page takes ten times the inserts per commit (a seed of 100,000
 * items: FerretDB 68 s of CPU and 77 s in all, now 60 s and 61 s). A batch that fails (a duplicate key) is
 * still inserted one document at a time up to the failing one, as before.
 */
const INSERT_BATCH = 1_000;

/** Starts FerretDB on SQLite files in `dataDir`, listening on loopback only; `env` adds to its environment. */
export async function startFerretDb(
  binary: string,
  dataDir: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
): Promise<EmbeddedMongo> {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    binary,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/${SQLITE_URL_PARAMS}`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${dataDir}`,
      '--telemetry=disable',
      `--test-batch-size=${INSERT_BATCH}`,
      '--debug-addr=-',
      '--log-level=error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const uri = `mongodb://127.0.0.1:${port}/`;
  try {
    await waitForMongo(uri, child, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`FerretDB did not start: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return {
    uri,
    process: child,
    stop: () => stopChild(child),
  };
}
