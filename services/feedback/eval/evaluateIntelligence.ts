/**
 * npm run eval:intelligence: themes and similar items on the second independent author's sets
 * (intelligence/README.md). Neither method was tuned on them: both were built on the demo seed's feedback
 * and hand-written examples, and this script scores them as they are, once.
 * `npm run eval:intelligence -- --tune` scores the tuning sets instead (themes-tune*.jsonl,
 * duplicates-tune.jsonl, written by the methods' developer), the only ones the methods are tuned on.
 * `npm run eval:intelligence -- --themes path.jsonl` scores only that themes file (same format as
 * themes.jsonl; a path relative to the working directory), printing figures and labels, never its texts.
 * `npm run eval:intelligence -- --duplicates path.jsonl` scores only that duplicates file (same format as
 * duplicates.jsonl), printing figures only.
 * Every run ends with the curated themes' figures on every themes set under eval/ that has a taxonomy
 * (curatedFigures.ts), then how far a person's corrections improve the other items (scoreCorrected);
 * `-- --curated` prints only those. `-- --test-vectors` computes the automatic themes
 * and the curated assignment from the vectors of the test model server (test/helpers/modelServer.ts, a
 * hashed bag of words, not a language model), to exercise and tune the methods by a model's vectors
 * where no model runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scoreCorrected, scoreCurated, type CuratedScore } from './curatedFigures';
import { givenPath } from './givenPath';
import { SimilarityIndex } from '../src/similarity/similarityIndex';
import { MIN_SIMILARITY } from '../src/similarity/similarFeedback';
import { modelText } from '../src/ai/modelWork';
import { computeThemes } from '../src/themes/themeClustering';
import { computeVectorThemes } from '../src/themes/vectorClustering';
import { testVector } from '../../../test/helpers/modelServer';

interface ThemeExample {
  id: number;
  theme: string | null;
  title: string;
  content: string;
}
interface DuplicateExample {
  id: number;
  group: number | null;
  role: 'original' | 'restatement' | 'distractor';
  title: string;
  content: string;
}

/** A set of intelligence/ by its name, or any file by its path. */
const readSet = <T>(file: string, path = join(__dirname, 'intelligence', file)): T[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
/** Which sets are scored: the tuning sets with `--tune`, else the held-out evaluation sets. */
const tuning = process.argv.includes('--tune');
const themesArg = process.argv.indexOf('--themes');
const extraThemes = themesArg >= 0 ? process.argv[themesArg + 1] : undefined;
if (themesArg >= 0 && !extraThemes) {
  console.error('--themes needs the path of a themes file');
  process.exit(1);
}
const extraThemesPath = extraThemes && givenPath(extraThemes);
const duplicatesArg = process.argv.indexOf('--duplicates');
const extraDuplicates = duplicatesArg >= 0 ? process.argv[duplicatesArg + 1] : undefined;
if (duplicatesArg >= 0 && !extraDuplicates) {
  console.error('--duplicates needs the path of a duplicates file');
  process.exit(1);
}
const extraDuplicatesPath = extraDuplicates && givenPath(extraDuplicates);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

const embed = process.argv.includes('--test-vectors')
  ? (text: string) => Float32Array.from(testVector(text))
  : undefined;

function themes(file: string, path?: string): void {
  const examples = readSet<ThemeExample>(file, path);
  const started = performance.now();
  let n = 0;
  const inputs = examples.map((e) => ({ id: String(e.id), title: e.title, text: e.content }));
  const vectors =
    embed && new Map(examples.map((e) => [String(e.id), embed(modelText({ title: e.title, content: e.content }))]));
  const { themes: found, assignments } =
    (vectors && computeVectorThemes(inputs, vectors, [], () => `t${(n += 1)}`)) ||
    computeThemes(inputs, [], () => `t${(n += 1)}`);
  const ms = performance.now() - started;
  const known = new Map(examples.map((e) => [String(e.id), e.theme]));
  console.log(
    `Themes (${file}): ${examples.length} items, ${found.length} themes computed in ${ms.toFixed(0)} ms, ${assignments.size} items in a theme.\n`,
  );
  console.log('| Theme (computed label) | Items | Largest known theme | Its share |');
  console.log('|---|---:|---|---:|');
  let large = 0;
  let pure = 0;
  for (const theme of found) {
    const members = [...assignments].filter(([, ids]) => ids.includes(theme.id)).map(([id]) => known.get(id) ?? null);
    const byKnown = new Map<string, number>();
    for (const k of members) byKnown.set(k ?? '(unrelated single)', (byKnown.get(k ?? '(unrelated single)') ?? 0) + 1);
    const [top, count] = [...byKnown].sort((a, b) => b[1] - a[1])[0];
    const share = count / members.length;
    if (members.length >= 5) {
      large += 1;
      // A theme is pure when one known theme (not the unrelated singles) makes 80% of it.
      if (share >= 0.8 && top !== '(unrelated single)') pure += 1;
    }
    console.log(`| ${theme.label} | ${members.length} | ${top} | ${pct(share)} |`);
  }
  console.log(
    `\nThemes of 5 or more items that are at least 80% one known theme: ${pure} of ${large} (target: all; ${verdict(pure === large)}).`,
  );
  const knownThemes = [...new Set(examples.map((e) => e.theme).filter((t): t is string => t !== null))];
  let together = 0;
  console.log('\n| Known theme | Items | Most in one computed theme | Share |');
  console.log('|---|---:|---|---:|');
  for (const k of knownThemes) {
    const ids = examples.filter((e) => e.theme === k).map((e) => String(e.id));
    const primary = new Map<string, number>();
    for (const id of ids) {
      const first = assignments.get(id)?.[0];
      if (first) primary.set(first, (primary.get(first) ?? 0) + 1);
    }
    const [best, count] = [...primary].sort((a, b) => b[1] - a[1])[0] ?? ['-', 0];
    const share = count / ids.length;
    if (share >= 0.6) together += 1;
    console.log(`| ${k} | ${ids.length} | ${found.find((t) => t.id === best)?.label ?? 'none'} | ${pct(share)} |`);
  }
  // The issue's target, 7 of 9, in proportion for a set of another number of known themes.
  const target = Math.ceil((knownThemes.length * 7) / 9);
  console.log(
    `\nKnown themes mostly (>= 60% of their items, by first theme) in one computed theme: ${together} of ${knownThemes.length} (target ${target} of ${knownThemes.length}: ${verdict(together >= target)}).`,
  );
  const singles = examples.filter((e) => e.theme === null);
  console.log(
    `Unrelated singles left without a theme: ${singles.filter((e) => !assignments.has(String(e.id))).length} of ${singles.length}.\n`,
  );
}

function duplicates(file: string, path?: string): void {
  const examples = readSet<DuplicateExample>(file, path);
  const index = new SimilarityIndex();
  const items = examples.map((e) => ({ id: String(e.id), title: e.title, content: e.content }));
  for (const item of items) index.add(item);
  const group = new Map(examples.map((e) => [String(e.id), e.group]));
  const restatements = examples.filter((e) => e.role === 'restatement');
  let found = 0;
  let firstHit = 0;
  const started = performance.now();
  for (const e of restatements) {
    const similar = index.similar(items[examples.indexOf(e)], 3, MIN_SIMILARITY);
    const hits = similar.map(({ id }) => group.get(id) === e.group);
    if (hits.some(Boolean)) found += 1;
    if (hits[0]) firstHit += 1;
  }
  const ms = (performance.now() - started) / restatements.length;
  const distractorsProposed = examples
    .filter((e) => e.role === 'distractor')
    .filter((e) =>
      index.similar(items[examples.indexOf(e)], 1, MIN_SIMILARITY).some(({ id }) => group.get(id) !== null),
    ).length;
  console.log(
    `Duplicates (${file}): ${examples.length} items (${restatements.length} restatements of ${new Set(restatements.map((e) => e.group)).size} groups).`,
  );
  console.log(
    `- similar(take: 3) holds an item of the restatement's group: ${found} of ${restatements.length} = ${pct(found / restatements.length)} (target 80%: ${verdict(found / restatements.length >= 0.8)})`,
  );
  console.log(
    `- the first similar item is of its group: ${firstHit} of ${restatements.length} = ${pct(firstHit / restatements.length)}`,
  );
  console.log(
    `- distractors whose most similar item belongs to a group: ${distractorsProposed} of ${examples.filter((e) => e.role === 'distractor').length}`,
  );
  console.log(`- ${ms.toFixed(2)} ms per question in process.`);
}

/** Every themes set under eval/: the tuning ones (intelligence/themes-tune*) and the held-out ones. */
function themeSets(): Array<{ path: string; name: string; tune: boolean }> {
  const sets: Array<{ path: string; name: string; tune: boolean }> = [];
  for (const folder of readdirSync(__dirname, { withFileTypes: true }).filter((entry) => entry.isDirectory()))
    for (const file of readdirSync(join(__dirname, folder.name)).filter((f) => /^themes.*\.jsonl$/.test(f)))
      sets.push({
        path: join(__dirname, folder.name, file),
        name: `${folder.name}/${file}`,
        tune: file.includes('-tune'),
      });
  return sets.sort((a, b) => Number(b.tune) - Number(a.tune) || a.name.localeCompare(b.name));
}

/** The curated themes' figures on every set with a taxonomy, with and without examples. */
function curated(): void {
  const share = (n: number, of: number) => (of === 0 ? '-' : pct(n / of));
  const totals = { tune: [0, 0, 0, 0, 0, 0, 0, 0], heldOut: [0, 0, 0, 0, 0, 0, 0, 0] };
  console.log("Curated themes: first curated theme right on the known themes' other items (target 85%), unrelated");
  console.log('singles with no curated theme (target 60%); label, sentence, keywords, and 3 examples or none.');
  console.log(embed ? "Assigned by the test model server's vectors.\n" : '');
  console.log(
    '| Set | Known right, 3 examples | Singles none, 3 examples | Known right, no examples | Singles none, no examples |',
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const set of themeSets()) {
    const items = readSet<ThemeExample>(set.name, set.path);
    const scores = [scoreCurated(set.path, items, true, embed), scoreCurated(set.path, items, false, embed)];
    if (!scores[0] || !scores[1]) continue;
    const [a, b] = scores as CuratedScore[];
    const sum = set.tune ? totals.tune : totals.heldOut;
    [a.knownRight, a.known, a.singlesNone, a.singles, b.knownRight, b.known, b.singlesNone, b.singles].forEach(
      (value, i) => (sum[i] += value),
    );
    console.log(
      `| ${set.name}${set.tune ? ' (tuning)' : ''} | ${share(a.knownRight, a.known)} | ${share(a.singlesNone, a.singles)} | ${share(b.knownRight, b.known)} | ${share(b.singlesNone, b.singles)} |`,
    );
  }
  for (const [name, t] of [
    ['all tuning sets', totals.tune],
    ['all held-out sets', totals.heldOut],
  ] as const)
    console.log(
      `| **${name}** | ${share(t[0], t[1])} | ${share(t[2], t[3])} | ${share(t[4], t[5])} | ${share(t[6], t[7])} |`,
    );
  console.log('');
}

/** How many wrong items a person corrects in the simulation of corrections. */
const CORRECTIONS = [5, 10, 20];

/**
 * How far an organization's corrections improve its own results (curatedFigures.ts, scoreCorrected): with
 * three examples per theme, a person corrects the first 5, 10 or 20 wrong items; the figures are those of
 * the items they did not read, before and after the corrections teach the assignment.
 */
function corrected(): void {
  const share = (n: number, of: number) => (of === 0 ? '-' : pct(n / of));
  console.log('Corrections: a person corrects the first N wrong items (3 examples per theme); known right and');
  console.log('singles none on the items they did not read, before -> after the corrections teach the assignment.\n');
  console.log(
    `| Set | ${CORRECTIONS.map((n) => `${n} corrected: items read, known right, singles none`).join(' | ')} |`,
  );
  console.log(`|---|${CORRECTIONS.map(() => '---:|').join('')}`);
  const zero = () => CORRECTIONS.map(() => [0, 0, 0, 0, 0, 0]);
  const totals = { tune: zero(), heldOut: zero() };
  for (const set of themeSets()) {
    const items = readSet<ThemeExample>(set.name, set.path);
    const cells: string[] = [];
    for (const [j, n] of CORRECTIONS.entries()) {
      const result = scoreCorrected(set.path, items, true, n, embed);
      if (!result) break;
      const { before: b, after: a } = result;
      const sum = (set.tune ? totals.tune : totals.heldOut)[j];
      [b.knownRight, a.knownRight, b.known, b.singlesNone, a.singlesNone, b.singles].forEach((v, i) => (sum[i] += v));
      cells.push(
        `${result.read}, ${share(b.knownRight, b.known)} -> ${share(a.knownRight, a.known)}, ${share(b.singlesNone, b.singles)} -> ${share(a.singlesNone, a.singles)}`,
      );
    }
    if (cells.length > 0) console.log(`| ${set.name}${set.tune ? ' (tuning)' : ''} | ${cells.join(' | ')} |`);
  }
  for (const [name, t] of [
    ['all tuning sets', totals.tune],
    ['all held-out sets', totals.heldOut],
  ] as const)
    console.log(
      `| **${name}** | ${t.map((s) => `${share(s[0], s[2])} -> ${share(s[1], s[2])}, ${share(s[3], s[5])} -> ${share(s[4], s[5])}`).join(' | ')} |`,
    );
  console.log('');
}

if (process.argv.includes('--curated')) {
  curated();
  corrected();
} else if (extraThemesPath || extraDuplicatesPath) {
  if (extraThemesPath) themes(extraThemesPath, extraThemesPath);
  if (extraDuplicatesPath) duplicates(extraDuplicatesPath, extraDuplicatesPath);
} else {
  for (const file of tuning
    ? ['themes-tune.jsonl', 'themes-tune-b.jsonl', 'themes-tune-c.jsonl', 'themes-tune-d.jsonl']
    : ['themes.jsonl'])
    themes(file);
  for (const file of tuning ? ['duplicates-tune.jsonl', 'duplicates-tune-b.jsonl'] : ['duplicates.jsonl'])
    duplicates(file);
  curated();
  corrected();
}
