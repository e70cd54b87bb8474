/**
 * Attack clients in a process of their own, as attackers are elsewhere than the API: each key sends
 * ATTACK_QUERY in a loop, one request after another, in ATTACK_ROUNDS rounds of ATTACK_MS each with a
 * pause of the same length after each (so the victim's idle and attacked samples alternate and a change
 * in the machine's own load hits both alike). Prints `attack` and `pause` as each phase begins and one
 * JSON line of outcomes per key at the end. Loopback only: the URL is checked.
 */
const url = process.env.ATTACK_URL ?? '';
const keys = (process.env.ATTACK_KEYS ?? '').split(',').filter(Boolean);
/** Session cookies instead of keys (the admin API): each attacker sends the query with its cookie. */
const cookies = (process.env.ATTACK_COOKIES ?? '').split(',').filter(Boolean);
const query = process.env.ATTACK_QUERY ?? '';
const durationMs = Number(process.env.ATTACK_MS);
const rounds = Number(process.env.ATTACK_ROUNDS ?? 1);

interface Outcome {
  answered: number;
  refused: number;
  retryAfter: string[];
  other: Array<number | string>;
}

/** One attacker: a key (sent as the variable `k`) or a session cookie. */
type Credential = { key: string } | { cookie: string };

async function attack(credential: Credential, until: number, outcome: Outcome): Promise<void> {
  while (Date.now() < until) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...('cookie' in credential ? { cookie: credential.cookie } : {}),
        },
        body: JSON.stringify({ query, variables: 'key' in credential ? { k: credential.key } : {} }),
      });
      const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
      if (response.status === 200 && !body.errors) outcome.answered += 1;
      else if (
        response.status === 429 &&
        body.errors?.[0]?.extensions?.code === 'RATE_LIMITED' &&
        Number(response.headers.get('retry-after')) >= 1
      ) {
        outcome.refused += 1;
        const retryAfter = response.headers.get('retry-after') ?? '';
        if (!outcome.retryAfter.includes(retryAfter)) outcome.retryAfter.push(retryAfter);
      } else outcome.other.push(`${response.status} ${body.errors?.[0]?.extensions?.code ?? ''}`.trim());
    } catch (error) {
      outcome.other.push((error as Error).message);
    }
  }
}

async function main(): Promise<void> {
  if (
    !/^http:\/\/127\.0\.0\.1:\d+\//.test(url) ||
    keys.length + cookies.length === 0 ||
    !query ||
    !(durationMs > 0 && durationMs * rounds <= 60_000)
  ) {
    throw new Error(
      'ATTACK_URL (loopback), ATTACK_KEYS or ATTACK_COOKIES, ATTACK_QUERY and ATTACK_MS (at most 60 s in all rounds) are required',
    );
  }
  const credentials: Credential[] = [...keys.map((key) => ({ key })), ...cookies.map((cookie) => ({ cookie }))];
  const outcomes: Outcome[] = credentials.map(() => ({ answered: 0, refused: 0, retryAfter: [], other: [] }));
  for (let round = 0; round < rounds; round += 1) {
    process.stdout.write('attack\n');
    const until = Date.now() + durationMs;
    await Promise.all(credentials.map((credential, i) => attack(credential, until, outcomes[i])));
    process.stdout.write('pause\n');
    await new Promise((resolve) => setTimeout(resolve, durationMs));
  }
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
