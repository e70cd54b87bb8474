import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `npx tsx bench/profileSummary.ts FILE.cpuprofile [TOP]`: where a V8 CPU profile (node --cpu-prof)
 * spent its time, by self time: per module (a package, or a folder of this project, or node's own
 * internals) and per function. Idle time is left out of the shares, so they add up to the busy time.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = path.resolve(__dirname, '..');
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

/** A package name for node_modules code, the project folder (gateway/src, shared/src...) otherwise. */
export function moduleOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  const packages = /node_modules\/((?:@[^/]+\/)?[^/]+)/g;
  let last: string | null = null;
  for (let match = packages.exec(file); match; match = packages.exec(file)) last = match[1];
  if (last) return last;
  const relative = path.relative(ROOT, file);
  return relative.startsWith('..') ? file : relative.split(path.sep).slice(0, 2).join('/');
}

/** The summary of a profile's samples after its first `skipMs` (start-up), as Markdown tables. */
export function summarize(profile: CpuProfile, top: number, skipMs = 0): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsedUs += delta;
    if (elapsedUs >= skipMs * 1000) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });

  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const owner = moduleOf(frame);
    modules.set(owner, (modules.get(owner) ?? 0) + us);
    const where = frame.url ? `${owner}:${path.basename(frame.url)}:${frame.lineNumber + 1}` : owner;
    const name = `${frame.functionName || '(anonymous)'} (${where})`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }

  const table = (title: string, entries: Map<string, number>) => {
    const rows = [...entries].sort((a, b) => b[1] - a[1]).slice(0, top);
    return [
      `| ${title} | self ms | share of busy |`,
      '|---|---:|---:|',
      ...rows.map(
        ([name, us]) =>
          `| ${name.replace(/\|/g, '\\|')} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)}% |`,
      ),
    ].join('\n');
  };
  const wall = (profile.endTime - profile.startTime) / 1000 - skipMs;
  return [
    `Profile of ${(wall / 1000).toFixed(1)} s${skipMs ? ` (the first ${(skipMs / 1000).toFixed(1)} s, start-up, left out)` : ''}: busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms` +
      ` (${[...IDLE].filter((n) => n !== '(idle)').join(' and ')} count as busy).`,
    '',
    table('Module', modules),
    '',
    table('Function', functions),
  ].join('\n');
}

/**
 * The summary of the main thread's profile in `dir` (the largest file: node also profiles the module
 * loader's worker thread), for the benchmark's notes.
 */
export function summarizeProfileDir(dir: string, skipMs: number, command: string): string {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (files.length === 0) return `No CPU profile was written to ${dir}.\n`;
  const profile = JSON.parse(readFileSync(files[0], 'utf8')) as CpuProfile;
  return `CPU profile of our gateway under ${command} (self time; node --cpu-prof):\n\n${summarize(profile, 25, skipMs)}\n`;
}

if (require.main === module) {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profileSummary.ts FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  process.stdout.write(`${summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top))}\n`);
}
