import { type KeyService, type MemberService, OPERATOR } from '@fi/identity';
import { spawnEntry } from '../test/helpers/processes';

/** The attack of issue 21: ten aliased pages with their totals, from free keys of organizations without items. */
const ATTACK = `query Attack($k: String!) { ${Array.from({ length: 10 }, (_, i) => `a${i}: feedbackItems(apiKey: $k) { total }`).join(' ')} }`;
const READ =
  'query Read($k: String!, $skip: Int, $take: Int) { feedbackItems(apiKey: $k, skip: $skip, take: $take) { total items { id title status } } }';
const ATTACKERS = 3;
const ROUND_MS = 5_000;

export interface FairShareFigures {
  rounds: number;
  victim: { idleP50: number; attackedP50: number; ratio: number; idle: number; attacked: number; failed: number };
  attackers: Array<{ answered: number; refused: number; retryAfter: string[]; other: Array<number | string> }>;
}

type Post = (url: string, body: string) => Promise<string>;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * `npm run bench -- --fair-share`: three free keys send the 10-alias query in a loop (rounds of 5 s, each
 * followed by 5 s of pause, from a process of their own) while the victim, an enterprise key of the
 * seeded organization, reads pages one after another, a different page and size each time. The victim's
 * median round trip while the attack runs against its median in the pauses, its failed requests, and
 * what each attacker got. The production settings of the gateway's limits and the bulkheads apply.
 */
export async function fairShareBench(
  gatewayUrl: string,
  keys: KeyService,
  victimKey: string,
  rounds: number,
  post: Post,
): Promise<FairShareFigures> {
  const attackers: string[] = [];
  for (let i = 0; i < ATTACKERS; i += 1) {
    const orgId = `fair-share-attacker-${Date.now()}-${i}`;
    await keys.organizationFor(OPERATOR, orgId, 'free');
    attackers.push(
      (await keys.create(OPERATOR, orgId, { name: 'attacker', readOnly: true, rateLimitPerMinute: null })).key,
    );
  }
  return victimUnderAttack(gatewayUrl, victimKey, rounds, post, {
    ATTACK_URL: gatewayUrl.replace('localhost', '127.0.0.1'),
    ATTACK_KEYS: attackers.join(','),
    ATTACK_QUERY: ATTACK,
  });
}

/**
 * The heavy admin query of issue 36 (D2): a page of 100 items, each with 20 similar items, each with 20
 * more. The public API refuses it (46,202 points); on the admin API a member of an enterprise
 * organization (unlimited points) may send it, and the bulkheads must keep it to that organization's share.
 */
export const HEAVY_ADMIN_QUERY =
  '{ feedbackItems(take: 100) { items { id similar(take: 20) { score item { id similar(take: 20) { score item { id title } } } } } } }';

/**
 * `npm run bench -- --fair-share`, second case: two members of another organization (enterprise, with
 * items to compare) send the heavy admin query in a loop (rounds of 5 s, each followed by 5 s of pause)
 * while the victim reads as above. `sessionCookies`: the attackers' signed-in sessions.
 */
export function adminFairShareBench(
  gatewayUrl: string,
  sessionCookies: string[],
  victimKey: string,
  rounds: number,
  post: Post,
): Promise<FairShareFigures> {
  return victimUnderAttack(gatewayUrl, victimKey, rounds, post, {
    ATTACK_URL: gatewayUrl.replace('localhost', '127.0.0.1').replace(/\/graphql$/, '/admin/graphql'),
    ATTACK_COOKIES: sessionCookies.join(','),
    ATTACK_QUERY: HEAVY_ADMIN_QUERY,
  });
}

/** Adds `count` members (viewers) to `orgId` and signs each in through the gateway; their session cookies. */
export async function signedInMembers(
  gatewayUrl: string,
  members: MemberService,
  orgId: string,
  count: number,
): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `viewer-${i}-${Date.now()}@bench.example`;
    const password = `bench viewer password ${i}`;
    await members.add(OPERATOR, orgId, { email, name: `Viewer ${i}`, role: 'viewer', password });
    const response = await fetch(gatewayUrl.replace(/\/graphql$/, '/admin/graphql'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }',
        variables: { e: email, p: password },
      }),
    });
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    if (!cookie) throw new Error(`sign-in failed: ${await response.text()}`);
    cookies.push(cookie);
  }
  return cookies;
}

/** The victim's reads, one after another, while the attack clients (`attack`: their settings) run. */
async function victimUnderAttack(
  gatewayUrl: string,
  victimKey: string,
  rounds: number,
  post: Post,
  attack: Record<string, string>,
): Promise<FairShareFigures> {
  const clients = spawnEntry('test/helpers/attackClients.ts', {
    ...attack,
    ATTACK_MS: String(ROUND_MS),
    ATTACK_ROUNDS: String(rounds),
  });
  const phases = () =>
    clients
      .output()
      .split('\n')
      .filter((line) => line === 'attack' || line === 'pause');
  const idle: number[] = [];
  const attacked: number[] = [];
  let failed = 0;
  for (let i = 0; clients.child.exitCode === null; i += 1) {
    const before = phases().length;
    const started = performance.now();
    const answer = JSON.parse(
      await post(
        gatewayUrl,
        JSON.stringify({ query: READ, variables: { k: victimKey, skip: (i * 7) % 200, take: 10 + (i % 41) } }),
      ),
    ) as { errors?: unknown[] };
    const ms = performance.now() - started;
    if (answer.errors) failed += 1;
    const after = phases();
    // A sample counts for the phase it began and ended in; before the first phase it is not counted.
    if (after.length > 0 && after.length === before) (after[after.length - 1] === 'attack' ? attacked : idle).push(ms);
  }
  if ((await clients.exited) !== 0) throw new Error(`the attack clients failed: ${clients.output()}`);
  const outcomes = JSON.parse(clients.output().trim().split('\n').pop() ?? '[]') as FairShareFigures['attackers'];
  const idleP50 = median(idle);
  const attackedP50 = median(attacked);
  return {
    rounds,
    victim: {
      idleP50: Math.round(idleP50),
      attackedP50: Math.round(attackedP50),
      ratio: Math.round((attackedP50 / idleP50) * 100) / 100,
      idle: idle.length,
      attacked: attacked.length,
      failed,
    },
    attackers: outcomes,
  };
}

export function fairShareMarkdown(
  figures: FairShareFigures,
  machine: string,
  attack = 'Three free keys send the 10-alias query',
): string {
  const { victim } = figures;
  return [
    `Measured ${new Date().toISOString()}; ${machine}.`,
    '',
    `${attack} for ${figures.rounds} rounds of 5 s (each followed by 5 s of pause) while an enterprise key of another organization reads pages.`,
    '',
    '| Victim p50 idle | Victim p50 under attack | Ratio | Victim requests (idle / attacked) | Victim failures |',
    '|---:|---:|---:|---:|---:|',
    `| ${victim.idleP50} ms | ${victim.attackedP50} ms | ${victim.ratio}x | ${victim.idle} / ${victim.attacked} | ${victim.failed} |`,
    '',
    '| Attacker | Answered | Refused (429) | Retry-After seen | Other outcomes |',
    '|---|---:|---:|---|---|',
    ...figures.attackers.map(
      (a, i) =>
        `| ${i + 1} | ${a.answered} | ${a.refused} | ${a.retryAfter.length ? `${Math.min(...a.retryAfter.map(Number))}-${Math.max(...a.retryAfter.map(Number))} s` : '-'} | ${a.other.length ? a.other.slice(0, 3).join(', ') : 'none'} |`,
    ),
  ].join('\n');
}
