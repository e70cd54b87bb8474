import {
  binomialUpperTail,
  decide,
  DEFAULT_RULES,
  platformSignals,
  poissonRateTest,
  shareTest,
  signalsOf,
} from '@fi/feedback';

const quiet = { total: 100, negative: 20 };
const negative = {
  today: { total: 10, negative: 2 },
  last24h: { total: 10, negative: 2 },
  baseline: { total: 280, negative: 56 },
};
const theme = (today: number, baseline: number, last24h = today) => ({
  id: 'th_1',
  label: 'Billing',
  isNew: false,
  today,
  last24h,
  baseline,
});

describe('alert statistics', () => {
  test('when tails are computed, then they match exact values', () => {
    // P(Bin(10, 0.5) >= 8) = 56 / 1024.
    expect(binomialUpperTail(8, 10, 0.5)).toBeCloseTo(56 / 1024, 12);
    expect(binomialUpperTail(0, 10, 0.5)).toBe(1);
    expect(binomialUpperTail(11, 10, 0.5)).toBe(0);
    // P(Bin(3, 0.1) >= 1) = 1 - 0.9^3.
    expect(binomialUpperTail(1, 3, 0.1)).toBeCloseTo(1 - 0.729, 12);
  });

  test('when a small count meets a small baseline, then the test is not fooled by the ratio', () => {
    // 2 items against 0.25 a day: eight times the rate, but two items happen.
    const small = poissonRateTest(2, 7, 28);
    expect(small.ratio).toBe(8);
    expect(small.p).toBeGreaterThan(0.01);
    const large = poissonRateTest(12, 42, 28);
    expect(large.p).toBeLessThan(1e-5);
    expect(shareTest(9, 10, 56, 280).p).toBeLessThan(1e-4);
  });
});

describe('spike detection', () => {
  test('when a theme is at 8x its baseline with 12 items, then it fires; at its usual rate, it does not', () => {
    const [spike] = signalsOf(DEFAULT_RULES, [theme(12, 42)], negative);
    expect(spike).toMatchObject({ kind: 'theme_spike', fires: true, holds: true });
    const [usual] = signalsOf(DEFAULT_RULES, [theme(2, 42)], negative);
    expect(usual).toMatchObject({ fires: false, holds: false });
  });

  test('when a spike is significant but under 5 items or under 3x, then it does not fire', () => {
    expect(signalsOf(DEFAULT_RULES, [theme(4, 0)], negative)[0].fires).toBe(false);
    expect(signalsOf(DEFAULT_RULES, [theme(100, 28 * 40)], negative)[0].fires).toBe(false);
  });

  test('when a theme is muted, then it gives no signal', () => {
    const signals = signalsOf({ ...DEFAULT_RULES, mutedThemeIds: ['th_1'] }, [theme(12, 42)], negative);
    expect(signals.map((s) => s.kind)).toEqual(['negative_share']);
  });

  test('when the negative share jumps, then it fires', () => {
    const signals = signalsOf(DEFAULT_RULES, [], { ...negative, today: { total: 12, negative: 10 }, baseline: quiet });
    expect(signals[0]).toMatchObject({ kind: 'negative_share', fires: true });
  });

  test('when a subject has an open alert, then it grows instead of opening; in its cooldown nothing opens; when it no longer holds, it closes', () => {
    const [signal] = signalsOf(DEFAULT_RULES, [theme(12, 42)], negative);
    const now = new Date('2026-01-02T12:00:00Z');
    const alert = {
      id: 'alr_1',
      orgId: 'o',
      kind: 'theme_spike' as const,
      subject: 'th_1',
      themeId: 'th_1',
      label: 'Billing',
      window: '2026-01-02',
      status: 'open' as const,
      openedAt: now,
      updatedAt: now,
      acknowledgedAt: null,
      closedAt: null,
      count: 10,
      total: 10,
      baseline: 1.5,
      p: 0.001,
      exampleIds: [],
    };
    const kinds = ['theme_spike', 'new_theme', 'negative_share'] as const;
    expect(decide([signal], [alert], new Map(), DEFAULT_RULES, kinds, now)).toMatchObject({ open: [], close: [] });
    expect(decide([signal], [alert], new Map(), DEFAULT_RULES, kinds, now).grow).toHaveLength(1);
    const cooled = new Map([['theme_spike:th_1', new Date(now.getTime() - 3_600_000)]]);
    expect(decide([signal], [], cooled, DEFAULT_RULES, kinds, now).open).toEqual([]);
    expect(decide([signal], [], new Map(), DEFAULT_RULES, kinds, now).open).toEqual([signal]);
    const [passed] = signalsOf(DEFAULT_RULES, [theme(0, 42, 0)], negative);
    expect(decide([passed], [alert], new Map(), DEFAULT_RULES, kinds, now).close).toEqual([alert]);
  });
});

describe('silent platforms', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  const platform = (itemsReceived: number, lastEventAt: string | null, status = 'active') => ({
    id: 'c1',
    kind: 'zendesk',
    name: 'Support',
    status,
    itemsReceived,
    lastEventAt: lastEventAt ? new Date(lastEventAt) : null,
    createdAt: new Date('2026-01-01T12:00:00Z'),
  });

  test('when a platform that sends 10 a day is silent for 30 hours, then it fires; one that sends 1 a day, or is paused, does not', () => {
    expect(platformSignals([platform(90, '2026-01-09T06:00:00Z')], DEFAULT_RULES, now)[0]).toMatchObject({
      kind: 'platform_silent',
      fires: true,
      holds: true,
    });
    expect(platformSignals([platform(9, '2026-01-09T06:00:00Z')], DEFAULT_RULES, now)[0].fires).toBe(false);
    expect(platformSignals([platform(90, '2026-01-09T06:00:00Z', 'paused')], DEFAULT_RULES, now)).toEqual([]);
    expect(platformSignals([platform(90, '2026-01-10T06:00:00Z')], DEFAULT_RULES, now)[0]).toMatchObject({
      fires: false,
      holds: false,
    });
  });
});
