import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { type Databases, openDatabases, seedOrganization } from '@fi/cli';
import { scaleBench, scaleMarkdown, searchPathsOf } from './scale';
import { atRest, searchSettled, themesSettled } from './settled';
import { SearchIndexStore, ThemeStore } from '@fi/feedback';
import { adminFairShareBench, fairShareBench, fairShareMarkdown, signedInMembers } from './fairShare';
import { type EmbeddedMongo, ensureFerretDb, FERRETDB_VERSION, freePort, startFerretDb } from '@fi/cli/embedded';
import { KeyService, MemberService, openRepositories, OPERATOR } from '@fi/identity';
import { IDENTITY_HEADER, parseSigningKeys, signIdentity } from '@fi/shared';
import { PrivateRedis, redisAnswers } from '../test/helpers/privateRedis';
import { runAlertsBench } from './alerts';
import { runIntelligenceBench } from './intelligence';
import { runIntegrationsBench } from './integrations';
import { load, type LoadRequest, type LoadSettings } from './load';
import { summarizeProfileDir } from './profileSummary';
import { timeExports } from './exports';
import { buildsMarkdown, compareBuilds } from './startup';
import { markdown, type BenchResults, type OneByOne, type ScalingPoint } from './report';
import { SCENARIOS, type Scenario, type ScenarioInputs, type SubgraphName } from './scenarios';
import {
  cpuMs,
  ensureHiveGateway,
  HIVE_GATEWAY_VERSION,
  peakRssMiB,
  startCeiling,
  startFeedbackWorker,
  startHiveGateway,
  startIdentity,
  startIntegrations,
  startOurGateway,
  startPassThrough,
  startSubgraphs,
  writeBenchSupergraph,
  type Running,
} from './targets';

/**
 * `npm run bench [-- --quick | --full]`: our gateway beside the subgraph called directly, Hive Gateway
 * on the same supergraph and subgraphs, and a bare node:http server replaying a recorded answer, under
 * the same load, alternated round by round; then scenario 1 as the data grows. `--scale`: an
 * organization's reads at 10,000 and 100,000 items (bench/scale.ts; with `--clone` the 100,000 are copies of
 * the seeded 10,000, quicker than seeding them; `--sizes 100000`: those sizes, the first seeded at once;
 * the feedback worker runs beside). `--startup`: the gateway run from
 * its sources and compiled, started in turn: start-up time, memory, throughput (bench/startup.ts).
 * `--fair-share`: a victim's reads while three free keys send the attack of issue 21, then while two
 * members of another organization send the heavy admin query of issue 36 (bench/fairShare.ts).
 */

interface Profile {
  feedback: number;
  contacts: number;
  accounts: number;
  /** Feedback counts at which scenario 1 is timed alone; the last one is also the load tests' size. */
  stages: number[];
  connections: number[];
  load: Omit<LoadSettings, 'connections'>;
  rounds: number;
  /**
   * Varied load on every target of a scenario before its first measured round. The back end (three
   * node processes and the database) and each gateway reach a steady state only after tens of
   * thousands of requests: without this, the first target measured in a scenario met a colder back end
   * than the ones after it.
   */
  scenarioWarmupSeconds: number;
  scalingRequests: number;
  /** A scenario whose single request takes longer than this is timed, not loaded (it measures the database). */
  maxProbeMs: number;
}

const DEFAULT: Profile = {
  feedback: 100_000,
  contacts: 10_000,
  accounts: 2_000,
  stages: [10_000, 100_000],
  connections: [20],
  load: { durationSeconds: 2, warmupSeconds: 1, timeoutSeconds: 30 },
  rounds: 3,
  scenarioWarmupSeconds: 8,
  scalingRequests: 3,
  // Under 20 connections a 100 ms request already queues for two seconds: beyond this, load measures the database.
  maxProbeMs: 100,
};

const PROFILES: Record<string, Profile> = {
  default: DEFAULT,
  quick: {
    ...DEFAULT,
    feedback: 3_000,
    contacts: 300,
    accounts: 60,
    stages: [1_000, 3_000],
    connections: [20],
    scalingRequests: 2,
    scenarioWarmupSeconds: 3,
    load: { durationSeconds: 1, warmupSeconds: 0.5, timeoutSeconds: 30 },
  },
  full: {
    ...DEFAULT,
    stages: [10_000, 100_000, 1_000_000],
    connections: [20, 50],
    load: { durationSeconds: 5, warmupSeconds: 2, timeoutSeconds: 30 },
  },
};

const ORG = 'bench';
/** The organization whose members send the heavy admin query in the fair-share bench. */
const ADMIN_ATTACKER_ORG = 'bench-admin-attacker';
/** Keys of the organization the requests rotate over, and requests per scenario sent in turn. */
const API_KEYS = 8;
const REQUEST_POOL = 500;
const HIVE_RUST = 'hive gateway (rust planner)';
const CEILING = 'node:http ceiling';
const PASS_THROUGH = 'node:http pass-through';
/** Requests per target when a database-bound scenario is timed one at a time. */
const ONE_BY_ONE_REQUESTS = 2;

type Variant = 'varied' | 'identical';
interface Target {
  name: string;
  url: string;
  /** The process whose CPU time is counted as the target's. */
  pid: number;
  /** Not our gateway (Hive, a subgraph direct or through a bare hop): the client sends the signed identity itself. */
  signedByClient: boolean;
}
const ROOT = path.resolve(__dirname, '..');
const say = (line: string) => process.stderr.write(`${line}\n`);
const BENCH_DATABASES = {
  FEEDBACK_MONGODB_DB: 'bench_feedback',
  CONTACTS_MONGODB_DB: 'bench_contacts',
  ACCOUNTS_MONGODB_DB: 'bench_accounts',
  IDENTITY_MONGODB_DB: 'bench_identity',
  INTEGRATIONS_MONGODB_DB: 'bench_integrations',
};
/** One signing key for the run, given to every service; Hive's requests carry identities signed with it. */
const SIGNING_KEYS = `bench:${randomBytes(32).toString('base64url')}`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      full: { type: 'boolean' },
      only: { type: 'string' },
      'cpu-prof': { type: 'boolean' },
      intelligence: { type: 'boolean' },
      integrations: { type: 'boolean' },
      alerts: { type: 'boolean' },
      scale: { type: 'boolean' },
      clone: { type: 'boolean' },
      sizes: { type: 'string' },
      startup: { type: 'boolean' },
      'fair-share': { type: 'boolean' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
    },
  });
  const only = values.only?.split(',').map((id) => id.trim());
  const scenarios = only ? SCENARIOS.filter((scenario) => only.includes(scenario.id)) : SCENARIOS;
  if (scenarios.length === 0)
    throw new Error(`--only ${values.only}: no such scenario (${SCENARIOS.map((s) => s.id).join(', ')})`);
  const profileDir = path.join(__dirname, 'results', 'profiles');
  const profileName = values.quick ? 'quick' : values.full ? 'full' : 'default';
  // --rounds N --seconds S: the load's rounds per target and their length, to compare with another tool's method.
  const profile = withRounds(PROFILES[profileName], values.rounds, values.seconds);
  const started = Date.now();
  const loadBefore = os.loadavg();
  const work = mkdtempSync(path.join(os.tmpdir(), 'fi-bench-'));
  const logDir = path.join(work, 'logs');
  const cleanups: Array<() => Promise<void>> = [];
  say(`Benchmark, profile ${profileName}; logs in ${logDir}`);

  try {
    const { uri, kind, pid: databasePid } = await database(work, cleanups);
    const redisUrl = await redis(cleanups);
    if (values.integrations) {
      // Items per second through the integrations service's paths (bench/integrations.ts).
      const machineLine = Object.entries(machine(kind))
        .filter(([name]) => !name.startsWith('@'))
        .map(([name, value]) => `${name} ${value}`)
        .join(', ');
      await runIntegrationsBench(
        uri,
        redisUrl,
        values.quick
          ? { webhooks: 300, mails: 150, tickets: 10_000, organizations: 4, concurrency: 8, itemsWaitMs: 120_000 }
          : {
              webhooks: 2_000,
              mails: 1_000,
              tickets: 100_000,
              organizations: 8,
              concurrency: 16,
              itemsWaitMs: 180_000,
            },
        machineLine,
        databasePid,
      );
      return;
    }
    if (values.alerts) {
      // Alerts alone (docs/alerts.md): false alerts on simulated streams, detection delay on a real stack.
      await runAlertsBench(uri, redisUrl, say);
      return;
    }
    if (values.intelligence) {
      // Themes and similar items alone (docs/intelligence.md): no gateway comparison.
      await runIntelligenceBench(uri, redisUrl, say);
      return;
    }
    const env = {
      MONGODB_URI: uri,
      REDIS_URL: redisUrl,
      RATE_LIMIT_REDIS_PREFIX: `fi-bench:${Date.now()}`,
      SUBGRAPH_TIMEOUT_MS: '300000',
      MONGODB_MAX_TIME_MS: '290000',
      AUTH_CACHE_TTL_MS: '30000',
      IDENTITY_SIGNING_KEYS: SIGNING_KEYS,
    };
    const db = await openDatabases({ ...env, ...BENCH_DATABASES });
    cleanups.push(() => db.close());
    await Promise.all(
      [db.feedback, db.contacts, db.accounts, db.identity].map((connection) => connection.dropDatabase()),
    );
    const keyService = new KeyService(await openRepositories(db.identity));
    await keyService.organizationFor(OPERATOR, ORG, 'enterprise');
    const apiKeys: string[] = [];
    for (let i = 0; i < API_KEYS; i += 1)
      apiKeys.push(
        (await keyService.create(OPERATOR, ORG, { name: `bench ${i}`, readOnly: false, rateLimitPerMinute: null })).key,
      );
    const key = apiKeys[0];

    const subgraphs = await startSubgraphs(
      (name) => ({
        ...env,
        MONGODB_DB: BENCH_DATABASES[`${name.toUpperCase()}_MONGODB_DB` as keyof typeof BENCH_DATABASES],
      }),
      logDir,
    );
    cleanups.push(() => Promise.all(Object.values(subgraphs).map((s) => s.stop())).then(() => undefined));
    const identity = await startIdentity({ ...env, MONGODB_DB: BENCH_DATABASES.IDENTITY_MONGODB_DB }, logDir);
    cleanups.push(() => identity.stop());
    const identityUrl = identity.url.replace(/\/graphql$/, '');
    const integrations = await startIntegrations(
      {
        ...env,
        MONGODB_DB: BENCH_DATABASES.INTEGRATIONS_MONGODB_DB,
        IDENTITY_URL: identityUrl,
      },
      logDir,
    );
    cleanups.push(() => integrations.stop());
    // The feedback worker, as in production: exports are its work (the API only queues them), and the
    // reads after each --scale seed wait for its themes and search index.
    const worker = await startFeedbackWorker(
      {
        ...env,
        MONGODB_DB: BENCH_DATABASES.FEEDBACK_MONGODB_DB,
        IDENTITY_URL: identityUrl,
        INTEGRATIONS_URL: integrations.url.replace(/\/graphql$/, ''),
      },
      logDir,
    );
    cleanups.push(() => worker.stop());
    const gatewayEnv = { ...env, IDENTITY_URL: identityUrl, INTEGRATIONS_URL: integrations.url };
    let ours = await startOurGateway(gatewayEnv, subgraphs, logDir);
    cleanups.push(() => ours.stop());
    if (values.scale) {
      // Only the reads of a growing organization, through our gateway (see bench/scale.ts).
      // --sizes 100000: straight to the largest (one seed), for the reads right after it and once caught up.
      const sizes = values.sizes
        ? values.sizes.split(',').map((size) => itemCount('--sizes', size))
        : values.quick
          ? [1_000, 10_000]
          : [10_000, 100_000];
      const scale = await scaleBench(
        ours.url,
        db,
        sizes,
        profile,
        post,
        say,
        () => searchPathsOf(subgraphs.feedback.url.replace(/\/graphql$/, '')),
        values.clone,
      );
      const table = scaleMarkdown(
        scale,
        Object.entries(machine(kind))
          .filter(([name]) => !name.startsWith('@'))
          .map(([name, value]) => `${name} ${value}`)
          .join(', '),
        values.clone,
      );
      mkdirSync(path.join(__dirname, 'results'), { recursive: true });
      writeFileSync(
        path.join(
          __dirname,
          'results',
          `latest-scale${values.quick ? '-quick' : ''}${values.clone ? '-clone' : ''}${values.sizes ? `-${sizes.join('-')}` : ''}.md`,
        ),
        `${table}\n`,
      );
      process.stdout.write(`${table}\n`);
      return;
    }

    if (values['fair-share']) {
      // A victim's reads while three free keys attack (bench/fairShare.ts), over a small organization.
      await seedOrganization(
        ORG,
        { feedback: 1_000, contacts: 0, accounts: 0 },
        db,
        { result: say, info: say },
        { feedbackOnly: true },
      );
      const rounds = values.quick ? 2 : 6;
      const machineLine = Object.entries(machine(kind))
        .filter(([name]) => !name.startsWith('@'))
        .map(([name, value]) => `${name} ${value}`)
        .join(', ');
      const figures = await fairShareBench(ours.url, keyService, key, rounds, post);
      // Then two members of another organization, with items of its own, send the heavy admin query.
      await keyService.organizationFor(OPERATOR, ADMIN_ATTACKER_ORG, 'enterprise');
      await seedOrganization(
        ADMIN_ATTACKER_ORG,
        { feedback: 1_000, contacts: 0, accounts: 0 },
        db,
        { result: say, info: say },
        { feedbackOnly: true },
      );
      const members = new MemberService(await openRepositories(db.identity));
      const cookies = await signedInMembers(ours.url, members, ADMIN_ATTACKER_ORG, 2);
      const adminFigures = await adminFairShareBench(ours.url, cookies, key, rounds, post);
      const table = [
        fairShareMarkdown(figures, machineLine),
        '',
        fairShareMarkdown(
          adminFigures,
          machineLine,
          'Two members of another (enterprise) organization send the heavy admin query (`feedbackItems(take: 100)` with 20 similar items each, and 20 more each) in a loop',
        ),
      ].join('\n');
      mkdirSync(path.join(__dirname, 'results'), { recursive: true });
      writeFileSync(
        path.join(__dirname, 'results', `latest-fair-share${values.quick ? '-quick' : ''}.md`),
        `${table}\n`,
      );
      process.stdout.write(`${table}\n`);
      return;
    }

    if (values.startup) {
      // The gateway from its sources and compiled (bench/startup.ts), over a small organization.
      await seedOrganization(ORG, { feedback: 1_000, contacts: profile.contacts, accounts: profile.accounts }, db, {
        result: say,
        info: say,
      });
      say('Compiling (npm run build)...');
      await promisify(execFile)('npm', ['run', 'build'], {
        cwd: path.resolve(__dirname, '..'),
        maxBuffer: 64 * 1024 * 1024,
      });
      const s3 = SCENARIOS.find((scenario) => scenario.id === 's3') as Scenario;
      const inputs = await scenarioInputs(db, apiKeys);
      const requests = Array.from({ length: REQUEST_POOL }, (_, n) => ({
        body: JSON.stringify(s3.body(inputs, n)),
        headers: {},
      }));
      const gatewaySubgraphs = {
        FEEDBACK_URL: subgraphs.feedback.url,
        CONTACTS_URL: subgraphs.contacts.url,
        ACCOUNTS_URL: subgraphs.accounts.url,
      };
      const points = await compareBuilds({ ...gatewayEnv, ...gatewaySubgraphs }, requests, values.quick ? 3 : 5, say);
      const table = [
        `Measured ${new Date().toISOString()}; ${Object.entries(machine(kind))
          .map(([name, value]) => `${name}: ${value}`)
          .join('; ')}.`,
        '',
        ...buildsMarkdown(points),
      ].join('\n');
      mkdirSync(path.join(__dirname, 'results'), { recursive: true });
      writeFileSync(path.join(__dirname, 'results', 'latest-startup.md'), `${table}\n`);
      process.stdout.write(`${table}\n`);
      return;
    }

    const hiveBin = await ensureHiveGateway(say);
    const supergraphFile = writeBenchSupergraph(subgraphs, work);
    const hive = await startHiveGateway(hiveBin, supergraphFile, logDir, 'default');
    cleanups.push(() => hive.stop());
    const hiveRust = await startHiveGateway(hiveBin, supergraphFile, logDir, 'rust');
    cleanups.push(() => hiveRust.stop());

    const scaling: ScalingPoint[] = [];
    const oneByOne: OneByOne[] = [];
    let inputs: ScenarioInputs | null = null;
    let seeded = 0;
    for (const [index, stage] of profile.stages.entries()) {
      if (index > 0 && stage > profile.feedback) break;
      say(`Seeding ${ORG} up to ${stage.toLocaleString('en')} feedback items...`);
      await seedOrganization(
        ORG,
        { feedback: stage - seeded, contacts: profile.contacts, accounts: profile.accounts },
        db,
        { result: say, info: say },
        { feedbackOnly: seeded > 0 },
      );
      seeded = stage;
      scaling.push(...(await timeScenarioOne(ours.url, key, stage, profile.scalingRequests)));
      if (index === 0) {
        inputs = await scenarioInputs(db, apiKeys);
        // Scenarios the database decides cannot be loaded; at the smallest size they are still compared
        // with Hive Gateway one request at a time.
        for (const scenario of scenarios.filter((s) => !s.mutation)) {
          oneByOne.push(
            ...(await compareOneByOne(scenario, inputs, stage, {
              ours,
              hive,
              hiveRust,
              subgraphs,
              databasePid,
              work,
              logDir,
              profile,
            })),
          );
        }
      }
    }
    if (!inputs) throw new Error('no stage was seeded');
    // The loaded scenarios run on the whole seeded data: their ids are drawn from all of it.
    if (seeded > profile.stages[0]) inputs = await scenarioInputs(db, apiKeys);

    const results: BenchResults = {
      startedAt: new Date(started).toISOString(),
      profile: profileName,
      machine: machine(kind),
      settings: {
        'feedback items': seeded.toLocaleString('en'),
        contacts: profile.contacts.toLocaleString('en'),
        accounts: profile.accounts.toLocaleString('en'),
        connections: profile.connections.join(' and '),
        'duration s': profile.load.durationSeconds,
        'warm-up s': `${profile.scenarioWarmupSeconds} per target before a scenario's first round, then ${profile.load.warmupSeconds} before each run`,
        rounds: profile.rounds,
        'worker processes per gateway': 1,
        keys: `${API_KEYS} enterprise keys of one organization, rotated request by request (unlimited, still counted in Redis)`,
        requests: `${REQUEST_POOL} different requests per scenario (ids, pages, filters, keys), sent in turn`,
        'back end at rest':
          "before every scenario the feedback worker's themes and search index caught up with the newest item; before every loaded run of a read, the subgraphs, the worker, identity, integrations and the private database together under 15% of one core for 2 s",
        'CPU ms/req':
          'user + system time (/proc) of the target process, and of the three subgraphs and the private database together, during the measured run, per request',
      },
      measurements: [],
      skipped: [],
      oneByOne,
      scaling,
      peakRssMiB: {},
      exports: [],
      loadAverage: { before: loadBefore, after: [] },
    };

    let profiledSince = 0;
    if (values['cpu-prof']) {
      // A fresh gateway, profiled from the first scenario on: seeding stays out of the profile, and its
      // start-up is cut off the summary.
      await ours.stop();
      rmSync(profileDir, { recursive: true, force: true });
      mkdirSync(profileDir, { recursive: true });
      const spawnedAt = Date.now();
      ours = await startOurGateway(gatewayEnv, subgraphs, logDir, profileDir);
      profiledSince = Date.now() - spawnedAt;
      say(`Profiling our gateway into ${profileDir}`);
    }
    const backEnd = restingBackEnd(db, [
      ...backEndPids({ subgraphs, databasePid }),
      worker.pid,
      identity.pid,
      integrations.pid,
    ]);
    for (const scenario of scenarios) {
      await runScenario(
        scenario,
        inputs,
        { ours, hive, hiveRust, subgraphs, databasePid, work, logDir, profile },
        backEnd,
        results,
      );
    }
    const outDir = path.join(__dirname, 'results');
    if (values['cpu-prof']) {
      await ours.stop();
      const summary = summarizeProfileDir(
        profileDir,
        profiledSince,
        `\`npm run bench -- --${profileName} --cpu-prof${values.only ? ` --only ${values.only}` : ''}\``,
      );
      writeFileSync(path.join(outDir, 'latest-cpu-profile.md'), summary);
      say(summary);
      // The profile is written when its gateway exits: the scaling rows and the exports need a gateway again.
      ours = await startOurGateway(gatewayEnv, subgraphs, logDir);
    }

    for (const stage of profile.stages.filter((count) => count > seeded)) {
      say(`Seeding ${ORG} up to ${stage.toLocaleString('en')} feedback items...`);
      await seedOrganization(
        ORG,
        { feedback: stage - seeded, contacts: profile.contacts, accounts: profile.accounts },
        db,
        { result: say, info: say },
        { feedbackOnly: true },
      );
      seeded = stage;
      scaling.push(...(await timeScenarioOne(ours.url, key, stage, profile.scalingRequests)));
    }

    say('Timing exports of the whole organization...');
    results.exports = await timeExports(ours.url, key, say);
    results.peakRssMiB = {
      'our gateway': peakRssMiB(ours.pid),
      'hive gateway': peakRssMiB(hive.pid),
      [HIVE_RUST]: peakRssMiB(hiveRust.pid),
    };
    results.loadAverage.after = os.loadavg();
    const titles = Object.fromEntries(scenarios.map((scenario) => [scenario.id, scenario.title]));
    const table = markdown(results, titles);
    mkdirSync(outDir, { recursive: true });
    // One file per kind of run, overwritten: the history is in git, not in a growing folder.
    writeFileSync(path.join(outDir, `latest-${profileName}.json`), JSON.stringify(results, null, 2));
    writeFileSync(path.join(outDir, `latest-${profileName}.md`), `${table}\n`);
    process.stdout.write(`${table}\n`);
    say(`Done in ${((Date.now() - started) / 1000).toFixed(0)} s; results in bench/results/.`);
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => say(`cleanup: ${(error as Error).message}`));
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Hive (and a subgraph called directly) has no key check of its own: the client sends the identity our
 * gateway would sign, naming the raw key as its reference (the key reaches the subgraph unchanged),
 * valid for the whole run.
 */
function clientSignedIdentity(key: string): Record<string, string> {
  const principal = {
    ref: key,
    kind: 'key' as const,
    orgId: ORG,
    role: 'member' as const,
    tier: 'enterprise' as const,
    readOnly: false,
    rateLimitPerMinute: null,
  };
  return { [IDENTITY_HEADER]: signIdentity(parseSigningKeys(SIGNING_KEYS), [principal], 24 * 3_600_000) };
}

interface Targets {
  ours: Running;
  hive: Running;
  hiveRust: Running;
  subgraphs: Record<'feedback' | 'contacts' | 'accounts', Running>;
  /** The private database's process; null when MONGODB_URI names a server elsewhere. */
  databasePid: number | null;
  work: string;
  logDir: string;
  profile: Profile;
}

interface RestingBackEnd {
  /** Waits for the worker to catch up with the newest item, then for the back end to rest (see bench/settled.ts). */
  settle(): Promise<number | null>;
  /** Waits for the back end's processes to rest; seconds waited, or null when they did not. */
  atRest(): Promise<number | null>;
}

function restingBackEnd(db: Databases, pids: number[]): RestingBackEnd {
  const themes = new ThemeStore(db.feedback);
  const search = new SearchIndexStore(db.feedback);
  return {
    async settle() {
      const started = Date.now();
      await themesSettled(themes, ORG);
      await searchSettled(search, ORG, { items: 0, workMs: 0 });
      const rested = await atRest(pids);
      return rested === null ? null : Math.round((Date.now() - started) / 100) / 10;
    },
    atRest: () => atRest(pids),
  };
}

async function runScenario(
  scenario: Scenario,
  inputs: ScenarioInputs,
  targets: Targets,
  backEnd: RestingBackEnd,
  results: BenchResults,
): Promise<void> {
  const bodies = Array.from({ length: REQUEST_POOL }, (_, n) => scenario.body(inputs, n));
  // Hive has no key check of its own: the client sends the request's key in the header it forwards.
  const requestsFor = (signed: boolean, count: number): LoadRequest[] =>
    bodies.slice(0, count).map((body) => ({
      body: JSON.stringify(body),
      headers: signed ? clientSignedIdentity(String(body.variables.k)) : ({} as Record<string, string>),
    }));
  // The fastest of three requests: a cold cache does not count, nor a moment when the machine is busy
  // with something else; mutations are timed all the same.
  const probes: number[] = [];
  let recorded = '';
  for (let i = 0; i < 3; i += 1) {
    const probeStart = Date.now();
    recorded = await post(targets.ours.url, JSON.stringify(bodies[i]));
    probes.push(Date.now() - probeStart);
    if (recorded.includes('"errors"'))
      throw new Error(`${scenario.id} answered with errors: ${recorded.slice(0, 300)}`);
    if (probes[i] > 10 * targets.profile.maxProbeMs) break;
  }
  const probeMs = Math.min(...probes);
  // One connection does not queue: an unloaded comparison measures the same whatever the database.
  if (probeMs > targets.profile.maxProbeMs && !scenario.unloadedOnly) {
    const reason = `one request takes ${probeMs >= 1000 ? `${(probeMs / 1000).toFixed(1)} s` : `${probeMs} ms`} on this database, so load would only measure the database (see the one-request-at-a-time table)`;
    say(`${scenario.id}: ${reason}`);
    results.skipped.push({ scenario: scenario.id, reason });
    return;
  }
  const ceiling = await startCeiling(recorded, targets.work, targets.logDir);
  const passThrough = scenario.subgraph
    ? await startPassThrough(targets.subgraphs[scenario.subgraph].url, targets.logDir)
    : null;
  try {
    const direct = scenario.subgraph ? [directTarget(targets, scenario.subgraph)] : [];
    const hop: Target[] = passThrough
      ? [{ name: PASS_THROUGH, url: passThrough.url, pid: passThrough.pid, signedByClient: true }]
      : [];
    const gateways = gatewayTargets(targets);
    const list: Target[] = [
      ...direct,
      ...gateways,
      { name: CEILING, url: ceiling.url, pid: ceiling.pid, signedByClient: false },
    ];
    const plan: Array<{ connections: number; list: Target[]; variant: Variant }> = [
      // One connection first: no queueing and nothing to share, so p50 differences to the subgraph are
      // the gateway's own cost; the bare pass-through beside them tells how much of it one more hop
      // costs on this machine.
      ...(scenario.subgraph
        ? [{ connections: 1, list: [...direct, gateways[0], ...hop], variant: 'varied' as const }]
        : []),
      ...(scenario.unloadedOnly
        ? []
        : targets.profile.connections.map((connections) => ({ connections, list, variant: 'varied' as const }))),
      // The same request again and again: what sharing identical in-flight executions is worth.
      ...(scenario.identicalRow
        ? [{ connections: targets.profile.connections[0], list: gateways, variant: 'identical' as const }]
        : []),
    ];
    const settled = await backEnd.settle();
    say(
      settled === null
        ? `${scenario.id}: the back end was still busy after the worker caught up; measuring anyway`
        : `${scenario.id}: the worker caught up and the back end rested in ${settled} s`,
    );
    await warmUp(
      Math.max(...plan.map((run) => run.connections)),
      [...direct, ...gateways, ...hop],
      requestsFor,
      targets.profile,
    );
    for (const { connections, list: targetsOfRun, variant } of plan) {
      for (let round = 1; round <= targets.profile.rounds; round += 1) {
        for (const target of inTurn(targetsOfRun, round)) {
          const requests = requestsFor(target.signedByClient, variant === 'identical' ? 1 : REQUEST_POOL);
          // Reads leave the worker nothing to do: whatever else the back end was busy with would be
          // counted to this target. Writes leave it their items, so a write run always meets some.
          if (!scenario.mutation && (await backEnd.atRest()) === null)
            say(`${scenario.id} ${target.name}: the back end was still busy after 3 minutes; measuring anyway`);
          const meter = cpuMeter(target.pid, backEndPids(targets));
          const result = await load(target.url, requests, { ...targets.profile.load, connections }, meter);
          say(
            `${scenario.id} ${variant} c${connections} r${round} ${target.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms, errors ${result.errors}`,
          );
          results.measurements.push({
            scenario: scenario.id,
            variant,
            connections,
            target: target.name,
            round,
            ...result,
            ...meter.perRequest(result.requests),
          });
        }
      }
    }
  } finally {
    await ceiling.stop();
    await passThrough?.stop();
  }
}

/** Every target under the scenario's varied load at its highest connection count, unmeasured, one after the other. */
async function warmUp(
  connections: number,
  list: Target[],
  requestsFor: (signed: boolean, count: number) => LoadRequest[],
  profile: Profile,
): Promise<void> {
  const seconds = profile.scenarioWarmupSeconds;
  if (seconds <= 0) return;
  for (const target of list) {
    await load(target.url, requestsFor(target.signedByClient, REQUEST_POOL), {
      ...profile.load,
      connections,
      durationSeconds: seconds,
      warmupSeconds: 0,
    });
  }
}

/**
 * The targets in the order of one round: each round starts one target further on, so no target is
 * always the first to meet the back end after another target's load (or after a pause).
 */
function inTurn<T>(list: T[], round: number): T[] {
  const shift = (round - 1) % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}

/**
 * A scenario too slow on this database to be loaded (its probe is over maxProbeMs), timed one varied
 * request at a time on every target, alternating, so it still stands beside Hive Gateway. Empty when
 * the scenario is fast enough to be loaded.
 */
async function compareOneByOne(
  scenario: Scenario,
  inputs: ScenarioInputs,
  items: number,
  targets: Targets,
): Promise<OneByOne[]> {
  const timeOne = async (target: Target, n: number) => {
    const body = scenario.body(inputs, n);
    const startedAt = Date.now();
    const text = await post(
      target.url,
      JSON.stringify(body),
      target.signedByClient ? clientSignedIdentity(String(body.variables.k)) : {},
    );
    if (text.includes('"errors"'))
      throw new Error(`${scenario.id} on ${target.name} answered with errors: ${text.slice(0, 300)}`);
    return Date.now() - startedAt;
  };
  const probe = [await timeOne(gatewayTargets(targets)[0], 0), await timeOne(gatewayTargets(targets)[0], 1)];
  if (Math.min(...probe) <= targets.profile.maxProbeMs) return [];
  const list = [...(scenario.subgraph ? [directTarget(targets, scenario.subgraph)] : []), ...gatewayTargets(targets)];
  const times = new Map(list.map((target) => [target.name, [] as number[]]));
  for (let n = 0; n < ONE_BY_ONE_REQUESTS; n += 1) {
    for (const target of list) (times.get(target.name) as number[]).push(await timeOne(target, n + 2));
  }
  return list.map((target) => {
    const sorted = (times.get(target.name) as number[]).sort((a, b) => a - b);
    say(`${scenario.id} one by one at ${items.toLocaleString('en')} items, ${target.name}: ${sorted.join(', ')} ms`);
    return {
      scenario: scenario.id,
      feedbackItems: items,
      target: target.name,
      requests: sorted.length,
      p50: sorted[Math.floor((sorted.length - 1) / 2)],
      max: sorted[sorted.length - 1],
    };
  });
}

const gatewayTargets = (targets: Targets): Target[] => [
  { name: 'our gateway', url: targets.ours.url, pid: targets.ours.pid, signedByClient: false },
  { name: 'hive gateway', url: targets.hive.url, pid: targets.hive.pid, signedByClient: true },
  { name: HIVE_RUST, url: targets.hiveRust.url, pid: targets.hiveRust.pid, signedByClient: true },
];

const directTarget = (targets: Targets, subgraph: SubgraphName): Target => {
  const running = targets.subgraphs[subgraph];
  return { name: 'subgraph direct', url: running.url, pid: running.pid, signedByClient: true };
};

/** What answers behind every gateway alike: the three subgraphs and the private database. */
const backEndPids = (targets: Pick<Targets, 'subgraphs' | 'databasePid'>): number[] => [
  ...Object.values(targets.subgraphs).map((s) => s.pid),
  ...(targets.databasePid ? [targets.databasePid] : []),
];

/**
 * CPU time the target process and the back end used during a measured run (warm-up excluded), per
 * request: under load every target shares the same two cores with the same back end, and this says
 * how much of them each gateway took for itself.
 */
function cpuMeter(targetPid: number, backEnd: number[]) {
  const read = () => {
    const target = cpuMs(targetPid);
    const parts = backEnd.map(cpuMs);
    return {
      target,
      backEnd: parts.includes(null) ? null : (parts as number[]).reduce((sum, value) => sum + value, 0),
    };
  };
  let before = read();
  let after = before;
  const per = (from: number | null, to: number | null, requests: number) =>
    from === null || to === null || requests === 0 ? null : (to - from) / requests;
  return {
    started: () => {
      before = read();
    },
    ended: () => {
      after = read();
    },
    perRequest: (requests: number) => ({
      targetCpuMs: per(before.target, after.target, requests),
      backEndCpuMs: per(before.backEnd, after.backEnd, requests),
    }),
  };
}

/** Scenario 1 alone, request after request: its first page and a page near the end. */
async function timeScenarioOne(url: string, apiKey: string, items: number, requests: number): Promise<ScalingPoint[]> {
  const query = (skip: number) =>
    JSON.stringify({
      query:
        'query($k: String!, $skip: Int) { feedbackItems(apiKey: $k, skip: $skip, take: 50, status: "unread", sentiment: "negative") { total items { id title createdAt } } }',
      variables: { k: apiKey, skip },
    });
  const first = JSON.parse(await post(url, query(0))) as { data: { feedbackItems: { total: number } } };
  const deepSkip = Math.max(0, first.data.feedbackItems.total - 50);
  const points: ScalingPoint[] = [];
  // On a database that scans (FerretDB v1), one request at 100,000 items takes seconds and at a million
  // minutes: fewer samples there keep the run bounded.
  const samples = items >= 1_000_000 ? 1 : items >= 100_000 ? Math.min(2, requests) : requests;
  for (const [label, skip] of [
    ['first page', 0],
    ['deep page', deepSkip],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      const startedAt = Date.now();
      const text = await post(url, query(skip));
      if (text.includes('"errors"')) throw new Error(`scenario 1 at ${items} items failed: ${text.slice(0, 300)}`);
      times.push(Date.now() - startedAt);
    }
    times.sort((a, b) => a - b);
    points.push({
      feedbackItems: items,
      query: label,
      requests: samples,
      p50: times[Math.floor((times.length - 1) / 2)],
      p95: times[times.length - 1],
    });
    say(`s1 at ${items.toLocaleString('en')} items, ${label}: ${times.join(', ')} ms`);
  }
  return points;
}

/** A size given on the command line: a whole number of items from 1,000 to 1,000,000. */
function itemCount(option: string, text: string): number {
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < 1_000 || value > 1_000_000)
    throw new Error(`${option} takes sizes from 1000 to 1000000 items, comma-separated (got ${text})`);
  return value;
}

function withRounds(profile: Profile, rounds: string | undefined, seconds: string | undefined): Profile {
  const count = (text: string | undefined, name: string, max: number) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new Error(`--${name} must be a whole number from 1 to ${max} (got ${text})`);
    return value;
  };
  const r = count(rounds, 'rounds', 20);
  const d = count(seconds, 'seconds', 120);
  return {
    ...profile,
    rounds: r ?? profile.rounds,
    load: { ...profile.load, durationSeconds: d ?? profile.load.durationSeconds },
  };
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(600_000),
  });
  return response.text();
}

/**
 * Ids spread evenly over each seeded collection, oldest to newest, not its first page: a lookup by id
 * costs the same wherever its record lies only where `_id` is really indexed, and the benchmark must
 * not hide a database that scans until it finds the record.
 */
async function scenarioInputs(db: Databases, apiKeys: string[]): Promise<ScenarioInputs> {
  const ids = async (connection: Databases['feedback'], collection: string) => {
    const docs = await connection
      .collection(collection)
      .find({ orgId: ORG }, { projection: { _id: 1 }, maxTimeMS: 600_000 })
      .toArray();
    if (docs.length === 0) throw new Error(`the seeded organization has no ${collection}`);
    const count = Math.min(REQUEST_POOL, docs.length);
    return Array.from({ length: count }, (_, i) => String(docs[Math.floor((i * docs.length) / count)]._id));
  };
  const [feedbackIds, contactIds, accountIds] = await Promise.all([
    ids(db.feedback, 'feedback_items'),
    ids(db.contacts, 'contacts'),
    ids(db.accounts, 'accounts'),
  ]);
  return { apiKeys, feedbackIds, contactIds, accountIds };
}

async function database(
  work: string,
  cleanups: Array<() => Promise<void>>,
): Promise<{ uri: string; kind: string; pid: number | null }> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, kind: 'MONGODB_URI', pid: null };
  const binary = await ensureFerretDb(say);
  const server: EmbeddedMongo = await startFerretDb(binary, path.join(work, 'db'), await freePort());
  cleanups.push(() => server.stop());
  const build = process.env.FERRETDB_BIN ? `FERRETDB_BIN=${process.env.FERRETDB_BIN}` : 'with our query pushdown patch';
  return { uri: server.uri, kind: `FerretDB ${FERRETDB_VERSION} (SQLite; ${build})`, pid: server.process.pid ?? null };
}

async function redis(cleanups: Array<() => Promise<void>>): Promise<string> {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (await redisAnswers(6379)) return 'redis://127.0.0.1:6379';
  const server = await PrivateRedis.start();
  cleanups.push(() => server.stop());
  return server.url;
}

function machine(database: string): Record<string, string | number> {
  const version = (pkg: string) =>
    (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`, { paths: [ROOT] }), 'utf8')) as { version: string })
      .version;
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    '@apollo/gateway': version('@apollo/gateway'),
    '@graphql-hive/gateway': HIVE_GATEWAY_VERSION,
    database,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
