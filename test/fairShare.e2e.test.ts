import { eventually, PROCESS_START_MS, spawnEntry } from './helpers/processes';
import { ownDatabaseName, startStack, type GraphQLResponse, type Stack } from './helpers/stack';

/**
 * The attack of issue 21, repeated: three clients send a legal 10-alias query in a loop for 20 s (four
 * rounds of 5 s, each followed by 5 s of idle) while another organization reads. The victim must see no
 * failed request; the attackers get answers or 429 with Retry-After, never a timeout or a 5xx, and no
 * more answers than their points allow. Loopback only, bounded in time.
 */

/** Four rounds of 5 s: 20 s of attack in all, each round followed by 5 s of idle. */
const ROUND_MS = 5_000;
const ROUNDS = 4;
const ATTACK = `query Attack($k: String!) { ${Array.from({ length: 10 }, (_, i) => `a${i}: feedbackItems(apiKey: $k) { total }`).join(' ')} }`;
/** Requests per minute of the attackers' free tier here: 10 points each, so 100 points, 5 attack queries of 20. */
const FREE_REQUESTS = 10;
const POINTS_PER_REQUEST = 10;
const ATTACK_POINTS = 20;
/** The attack's 40 s (rounds and pauses) meet at most two of the 60 s windows, each with its own budget. */
const WINDOWS_MET = 2;
const READ =
  'query Read($k: String!, $skip: Int) { feedbackItems(apiKey: $k, take: 10, skip: $skip) { total items { id title status } } }';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Sample {
  ms: number;
  response: GraphQLResponse;
}

async function timed(send: () => Promise<GraphQLResponse>): Promise<Sample> {
  const started = performance.now();
  const response = await send();
  return { ms: performance.now() - started, response };
}

describe('fair share under the attack of issue 21', () => {
  let stack: Stack;
  let victim: string;
  beforeAll(async () => {
    // The production settings of the bulkheads and the key cache (the test helper lengthens the queue waits
    // for loaded machines and turns the cache off so revocations show at once). The free tier is smaller
    // than in production, so that the points run out within the attack however slowly a loaded machine
    // lets the attackers send (one run sent only 21 requests per key in the 20 s, under 600 points).
    stack = await startStack(
      {
        ORG_QUEUE_WAIT_MS: '1000',
        KEY_QUEUE_WAIT_MS: '5000',
        AUTH_CACHE_TTL_MS: '30000',
        RATE_LIMIT_FREE: String(FREE_REQUESTS),
      },
      { databases: { feedback: ownDatabaseName('fair_share') } },
    );
    ({ key: victim } = await stack.createKey({ tier: 'enterprise' }));
    const add = `mutation($k: String!) { ${Array.from({ length: 15 }, (_, i) => `a${i}: addFeedbackItem(apiKey: $k, input: { source: "api", title: "Item ${i}", content: "Seeded" }) { id }`).join(' ')} }`;
    for (let i = 0; i < 4; i += 1) expect((await stack.gql(add, { k: victim })).body.errors).toBeUndefined();
  });
  afterAll(() => stack.close());

  const read = (i: number) => stack.gql(READ, { k: victim, skip: i % 50 });

  test('when three free keys send the 10-alias query in a loop for 20 s, then the other organization sees no failed request, and the attackers get only answers and 429 with Retry-After, at most their points allow', async () => {
    const attackers = await Promise.all(Array.from({ length: 3 }, () => stack.createKey({ tier: 'free' })));
    for (let i = 0; i < 5; i += 1) await read(i);

    const clients = spawnEntry('test/helpers/attackClients.ts', {
      ATTACK_URL: stack.gatewayUrl.replace('localhost', '127.0.0.1'),
      ATTACK_KEYS: attackers.map(({ key }) => key).join(','),
      ATTACK_QUERY: ATTACK,
      ATTACK_MS: String(ROUND_MS),
      ATTACK_ROUNDS: String(ROUNDS),
    });
    const phases = () =>
      clients
        .output()
        .split('\n')
        .filter((line) => line === 'attack' || line === 'pause');
    await eventually(
      () => phases().length > 0 || clients.child.exitCode !== null,
      PROCESS_START_MS,
      'the attack clients to start',
    );
    // The victim reads all along; a sample counts for the phase it started and ended in (none spans two).
    const attacked: Sample[] = [];
    const idle: Sample[] = [];
    for (let i = 0; clients.child.exitCode === null; i += 1) {
      const before = phases();
      const sample = await timed(() => read(i));
      const after = phases();
      if (before.length === after.length) (after[after.length - 1] === 'attack' ? attacked : idle).push(sample);
    }
    expect(await clients.exited).toBe(0);

    for (const { response } of [...idle, ...attacked]) {
      expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
    }
    const outcomes = JSON.parse(clients.output().trim().split('\n').pop() ?? '[]') as Array<{
      answered: number;
      refused: number;
      retryAfter: string[];
      other: string[];
    }>;
    const figures = {
      victim: {
        idleP50: Math.round(median(idle.map((s) => s.ms))),
        attackedP50: Math.round(median(attacked.map((s) => s.ms))),
        idle: idle.length,
        attacked: attacked.length,
      },
      attackers: outcomes,
    };
    console.log(`fair share figures: ${JSON.stringify(figures)}`);

    expect(outcomes).toHaveLength(3);
    for (const outcome of outcomes) {
      // Only answers and 429 RATE_LIMITED with Retry-After: no timeout, no 5xx, no other error.
      expect(outcome.other).toEqual([]);
      expect(outcome.refused).toBeGreaterThan(0);
      // The points budget stops them: each attack query costs 20 of the tier's points in each window.
      expect(outcome.answered).toBeLessThanOrEqual((WINDOWS_MET * FREE_REQUESTS * POINTS_PER_REQUEST) / ATTACK_POINTS);
    }
    // The medians are printed for docs/limits.md, not asserted: on the shared 2-core machine the victim's
    // median under attack was 2.3x to 9x of idle depending on DB_CONCURRENCY (see there); speed belongs in
    // the bench, this test holds what must never happen: a failed victim request, an attacker timeout.
  });
});
