import { exportTable, type ExportPoint } from './exports';
import type { LoadResult } from './load';

/** varied: every request different (the default); identical: one request repeated, which gateways may share. */
export type Variant = 'varied' | 'identical';

/** CPU time (user + system) per request during the measured run, in ms; null where /proc cannot tell. */
export interface CpuPerRequest {
  /** The process under test: a gateway, the subgraph called directly, or the ceiling server. */
  targetCpuMs: number | null;
  /** The three subgraphs and the private database together (for a subgraph called directly, it is among them). */
  backEndCpuMs: number | null;
}

export interface Measurement extends LoadResult, CpuPerRequest {
  scenario: string;
  variant: Variant;
  connections: number;
  target: string;
  round: number;
}

export interface Skipped {
  scenario: string;
  reason: string;
}

/** A database-bound scenario timed one request at a time on each target. */
export interface OneByOne {
  scenario: string;
  feedbackItems: number;
  target: string;
  requests: number;
  p50: number;
  max: number;
}

export interface ScalingPoint {
  feedbackItems: number;
  query: 'first page' | 'deep page';
  requests: number;
  p50: number;
  p95: number;
}

export interface BenchResults {
  startedAt: string;
  profile: string;
  machine: Record<string, string | number>;
  settings: Record<string, string | number>;
  measurements: Measurement[];
  skipped: Skipped[];
  oneByOne: OneByOne[];
  scaling: ScalingPoint[];
  peakRssMiB: Record<string, number | null>;
  /** Export throughput on the whole seeded organization. */
  exports: ExportPoint[];
  /** The machine's 1, 5 and 15-minute load averages when the run started and when it ended. */
  loadAverage: { before: number[]; after: number[] };
}

export interface Summary extends LoadResult, CpuPerRequest {
  scenario: string;
  variant: Variant;
  connections: number;
  target: string;
  rounds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const medianOrNull = (values: Array<number | null>) =>
  values.includes(null) || values.length === 0 ? null : median(values as number[]);

/** Medians over the rounds of each scenario, connection count and target (errors are summed). */
export function summarize(measurements: Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    const key = `${m.scenario}|${m.variant}|${m.connections}|${m.target}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].map((group) => ({
    scenario: group[0].scenario,
    variant: group[0].variant,
    connections: group[0].connections,
    target: group[0].target,
    rounds: group.length,
    requests: group.reduce((sum, m) => sum + m.requests, 0),
    rps: median(group.map((m) => m.rps)),
    p50: median(group.map((m) => m.p50)),
    p95: median(group.map((m) => m.p95)),
    p99: median(group.map((m) => m.p99)),
    errors: group.reduce((sum, m) => sum + m.errors, 0),
    // Results written before CPU was counted have no such fields.
    targetCpuMs: medianOrNull(group.map((m) => m.targetCpuMs ?? null)),
    backEndCpuMs: medianOrNull(group.map((m) => m.backEndCpuMs ?? null)),
  }));
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean | null;
}

/** Our throughput at least this many times Hive Gateway's, with every request different. */
const THROUGHPUT_GOAL = 1.5;
/** What the gateway may add to a direct subgraph call at one connection (p50). */
const OVERHEAD_GOAL_MS = 1;
/** What computing sentiment may add to addFeedbackItem with a 2,000-character text (p50). */
const SENTIMENT_GOAL_MS = 1;
const HIVE_PEERS = ['hive gateway', 'hive gateway (rust planner)'];

/** The issues' goals, as ratios of this run's varied requests (null: not measurable in this run, with the reason). */
export function goals(summaries: Summary[], results: BenchResults): Goal[] {
  const find = (scenario: string, target: string, connections: number) =>
    summaries.find(
      (s) => s.scenario === scenario && s.variant === 'varied' && s.target === target && s.connections === connections,
    );
  const skippedReason = (scenario: string) => results.skipped.find((s) => s.scenario === scenario)?.reason;
  const connectionLevels = [...new Set(summaries.map((s) => s.connections))].filter((connections) => connections > 1);
  const list: Goal[] = [];
  for (const scenario of ['s1', 's2', 's3', 's5', 's8']) {
    for (const peer of HIVE_PEERS) {
      const goal = `${scenario}: our req/s >= ${THROUGHPUT_GOAL}x ${peer}'s`;
      const skipped = skippedReason(scenario);
      if (skipped) {
        if (peer === HIVE_PEERS[0]) list.push({ goal, measured: `not measured: ${skipped}`, met: null });
        continue;
      }
      for (const connections of connectionLevels) {
        const ours = find(scenario, 'our gateway', connections);
        const hive = find(scenario, peer, connections);
        if (!ours || !hive) continue;
        const ratio = ours.rps / hive.rps;
        list.push({
          goal: goal.replace(':', ` @${connections}:`),
          measured: `${ours.rps.toFixed(0)} vs ${hive.rps.toFixed(0)} (x${ratio.toFixed(2)})`,
          met: ratio >= THROUGHPUT_GOAL,
        });
      }
    }
  }
  for (const scenario of ['s1', 's3', 's4']) {
    const goal = `${scenario} @1: gateway p50 overhead over the subgraph <= ${OVERHEAD_GOAL_MS} ms`;
    const skipped = skippedReason(scenario);
    if (skipped) {
      list.push({ goal, measured: `not measured: ${skipped}`, met: null });
      continue;
    }
    const ours = find(scenario, 'our gateway', 1);
    const direct = find(scenario, 'subgraph direct', 1);
    if (!ours || !direct) continue;
    const overhead = ours.p50 - direct.p50;
    const hop = find(scenario, 'node:http pass-through', 1);
    const hopPart = hop ? `; a bare node:http pass-through, no GraphQL: ${(hop.p50 - direct.p50).toFixed(2)} ms` : '';
    list.push({
      goal,
      measured: `${ours.p50.toFixed(2)} - ${direct.p50.toFixed(2)} = ${overhead.toFixed(2)} ms${hopPart}`,
      met: overhead <= OVERHEAD_GOAL_MS,
    });
  }
  for (const target of ['subgraph direct', 'our gateway']) {
    const given = find('s6', target, 1);
    const computed = find('s7', target, 1);
    if (!given || !computed) continue;
    const difference = computed.p50 - given.p50;
    list.push({
      goal: `addFeedbackItem @1 via ${target === 'our gateway' ? 'the gateway' : 'the subgraph'}: computing sentiment adds <= ${SENTIMENT_GOAL_MS} ms p50 (s7 - s6)`,
      measured: `${computed.p50.toFixed(2)} - ${given.p50.toFixed(2)} = ${difference.toFixed(2)} ms`,
      met: difference <= SENTIMENT_GOAL_MS,
    });
  }
  const firstPages = results.scaling
    .filter((point) => point.query === 'first page')
    .sort((a, b) => a.feedbackItems - b.feedbackItems);
  if (firstPages.length >= 2) {
    const smallest = firstPages[0];
    const largest = firstPages[firstPages.length - 1];
    const ratio = largest.p95 / smallest.p95;
    const full = largest.feedbackItems >= 1_000_000;
    list.push({
      goal: 's1 p95 at 1M items <= 2x its p95 at 10k',
      measured: `${(largest.p95 / 1000).toFixed(2)} s at ${largest.feedbackItems.toLocaleString('en')} vs ${(smallest.p95 / 1000).toFixed(2)} s at ${smallest.feedbackItems.toLocaleString('en')} (x${ratio.toFixed(1)})${full ? '' : '; 1M only with --full'}`,
      met: full ? ratio <= 2 : ratio <= 2 ? null : false,
    });
  }
  return list;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : '-');
const cpu = (value: number | null) => (value === null ? '-' : value.toFixed(2));

export function markdown(results: BenchResults, titles: Record<string, string>): string {
  const summaries = summarize(results.measurements);
  const lines: string[] = [];
  lines.push(
    `Measured ${results.startedAt} (profile \`${results.profile}\`) on ${Object.entries(results.machine)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ')}.`,
  );
  lines.push('');
  lines.push(
    `Settings: ${Object.entries(results.settings)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ')}.`,
  );
  lines.push('');
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' / ');
  lines.push(
    `Machine load (1 / 5 / 15-minute averages, ${results.machine.cores} cores, shared): ${load(results.loadAverage.before)} at the start, ${load(results.loadAverage.after)} at the end.`,
  );
  lines.push('');
  lines.push(
    '| Scenario | Conns | Target | req/s | p50 ms | p95 ms | p99 ms | target CPU ms/req | back-end CPU ms/req | Errors |',
  );
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of summaries) {
    const label = s.variant === 'identical' ? ' (one request repeated: in-flight sharing)' : '';
    lines.push(
      `| ${s.scenario} ${titles[s.scenario] ?? ''}${label} | ${s.connections} | ${s.target} | ${s.rps.toFixed(0)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${cpu(s.targetCpuMs)} | ${cpu(s.backEndCpuMs)} | ${s.errors} |`,
    );
  }
  for (const skipped of results.skipped) {
    lines.push(
      `| ${skipped.scenario} ${titles[skipped.scenario] ?? ''} | - | all | not run under load: ${skipped.reason} | | | | | | |`,
    );
  }
  if (results.oneByOne.length > 0) {
    lines.push('');
    lines.push(
      'Scenarios the database decides, one request at a time on each target, alternating, at the smallest size:',
    );
    lines.push('');
    lines.push('| Scenario | Feedback items | Target | Requests | p50 ms | max ms |');
    lines.push('|---|---:|---|---:|---:|---:|');
    for (const row of results.oneByOne) {
      lines.push(
        `| ${row.scenario} ${titles[row.scenario] ?? ''} | ${row.feedbackItems.toLocaleString('en')} | ${row.target} | ${row.requests} | ${ms(row.p50)} | ${ms(row.max)} |`,
      );
    }
  }
  lines.push('');
  lines.push('Scenario 1 as the data grows (our gateway, one request at a time):');
  lines.push('');
  lines.push('| Feedback items | Query | Requests | p50 ms | p95 ms |');
  lines.push('|---:|---|---:|---:|---:|');
  for (const point of results.scaling) {
    lines.push(
      `| ${point.feedbackItems.toLocaleString('en')} | ${point.query} | ${point.requests} | ${ms(point.p50)} | ${ms(point.p95)} |`,
    );
  }
  if (results.exports.length > 0) lines.push('', ...exportTable(results.exports));
  lines.push('');
  lines.push(
    `Peak RSS: ${Object.entries(results.peakRssMiB)
      .map(([k, v]) => `${k} ${v ?? '-'} MiB`)
      .join(', ')}.`,
  );
  lines.push('');
  lines.push('Goals:');
  lines.push('');
  lines.push('| Goal | Measured | Met |');
  lines.push('|---|---|---|');
  for (const goal of goals(summaries, results))
    lines.push(`| ${goal.goal} | ${goal.measured} | ${goal.met === null ? 'n/a' : goal.met ? 'yes' : 'no'} |`);
  return lines.join('\n');
}
