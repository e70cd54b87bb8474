/**
 * The tests behind an alert: exact tail probabilities, right for the small counts of a theme's day (a
 * normal approximation or a bare ratio would fire on 2 items against a baseline of 0.3 a day).
 */

// Lanczos approximation (g = 7, n = 9): ln Γ(x) to about 15 digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < 9; i += 1) sum += LANCZOS[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const lnChoose = (n: number, k: number) => lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);

/** P(X >= k) for X ~ Binomial(n, p), summed exactly from the tail's side that converges fastest. */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const term = (i: number) => Math.exp(lnChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  // Past the mean the terms fall from k on; before it, the lower tail is the short sum.
  if (k > n * p) {
    let sum = 0;
    for (let i = k; i <= n; i += 1) {
      const t = term(i);
      sum += t;
      if (t < sum * 1e-17) break;
    }
    return Math.min(1, sum);
  }
  let lower = 0;
  for (let i = k - 1; i >= 0; i -= 1) {
    const t = term(i);
    lower += t;
    if (t < lower * 1e-17) break;
  }
  return Math.max(0, 1 - lower);
}

/** What a count is tested against, and the answer. */
export interface RateTest {
  /** Expected items per day from the baseline. */
  baseline: number;
  /** Today's count over the baseline's daily rate (Infinity for a baseline of none). */
  ratio: number;
  /** Probability of a count at least this high were today like the baseline days. */
  p: number;
}

/**
 * Today's count `k` against `baselineTotal` items over `baselineDays` days: the exact conditional test of
 * two Poisson rates. Were today's rate the baseline's, of the k + B items of the two windows each falls in
 * today's with probability 1 / (days + 1), so p = P(Binomial(k + B, 1 / (days + 1)) >= k). It takes the
 * baseline's own uncertainty into account (a theme with 3 items in 28 days is not known to the decimal).
 */
export function poissonRateTest(k: number, baselineTotal: number, baselineDays: number): RateTest {
  const baseline = baselineTotal / baselineDays;
  return {
    baseline,
    ratio: baseline > 0 ? k / baseline : k > 0 ? Infinity : 0,
    p: binomialUpperTail(k, k + baselineTotal, 1 / (baselineDays + 1)),
  };
}

/** A share tested against a baseline share. */
export interface ShareTest {
  /** The baseline's share (smoothed: one pseudo-item each way, so a baseline of none is not 0 or 1). */
  baseline: number;
  share: number;
  p: number;
}

/**
 * `k` of today's `n` items (negative ones) against the baseline's `baselineK` of `baselineN`: the binomial
 * tail of today's count under the baseline's share.
 */
export function shareTest(k: number, n: number, baselineK: number, baselineN: number): ShareTest {
  const baseline = (baselineK + 1) / (baselineN + 2);
  return { baseline, share: n > 0 ? k / n : 0, p: binomialUpperTail(k, n, baseline) };
}
