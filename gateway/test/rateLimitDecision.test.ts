import {
  mostConstrained,
  rateLimitExtension,
  rateLimitHeaders,
  type RateLimitDecision,
} from '../src/rateLimit/decision';

const decision = (overrides: Partial<RateLimitDecision>): RateLimitDecision => ({
  allowed: true,
  tier: 'free',
  limit: 60,
  remaining: 59,
  resetSeconds: 42,
  windowSeconds: 60,
  ...overrides,
});

describe('the reported rate limit', () => {
  test('when a request used several keys, then the one with the fewest remaining requests is reported', () => {
    const unlimited = decision({ tier: 'enterprise', limit: null, remaining: null });
    const pro = decision({ tier: 'pro', limit: 300, remaining: 250 });
    const free = decision({ remaining: 3 });
    expect(mostConstrained([unlimited, pro, free])).toBe(free);
    expect(mostConstrained([unlimited])).toBe(unlimited);
    expect(mostConstrained([])).toBeUndefined();
  });

  test('when a key is limited, then the headers follow the IETF draft and the body says the same', () => {
    const limited = decision({ remaining: 0, resetSeconds: 7 });
    expect(rateLimitHeaders(limited)).toEqual({
      'ratelimit-policy': '60;w=60',
      ratelimit: 'limit=60, remaining=0, reset=7',
    });
    expect(rateLimitExtension(limited)).toEqual({ tier: 'free', limit: 60, remaining: 0, reset: 7, window: 60 });
  });

  test('when a key is unlimited, then no header claims a limit and the body says unlimited', () => {
    const unlimited = decision({ tier: 'enterprise', limit: null, remaining: null });
    expect(rateLimitHeaders(unlimited)).toEqual({});
    expect(rateLimitExtension(unlimited)).toEqual({ tier: 'enterprise', unlimited: true });
  });
});
