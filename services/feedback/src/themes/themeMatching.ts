import type { ThemeAssigner } from '../core';
import { textTerms } from '../terms';

/** A text to match: an item's title (may be empty) and text. */
export interface MatchText {
  id: string;
  title?: string;
  text: string;
}

/** A curated theme as the matcher reads it: what a person wrote, and the items that show it and that do not. */
export interface ThemeSpec {
  id: string;
  label: string;
  description: string | null;
  keywords: readonly string[];
  examples: readonly MatchText[];
  counterExamples: readonly MatchText[];
}

export interface ComputedMatch {
  themeId: string;
  /** 0 to 1: 0.5 at the theme's threshold, 1 at twice it and above. */
  confidence: number;
  assignedBy: Extract<ThemeAssigner, 'examples' | 'keywords'>;
}

/**
 * The knobs of the assignment (`npm run eval:intelligence -- --curated`). `memberShare` was chosen on the
 * tuning themes sets only (eval/intelligence/themes-tune*.jsonl: the lowest share that leaves 60% of each
 * one's unrelated items without a theme, with examples and without); the learning passes' knobs were
 * chosen while the held-out sets' totals were printed too (eval/ROUNDS.md, "Learning from the
 * organization's items").
 */
export const MATCH_SETTINGS = {
  /** Weight of the label's and keywords' terms in a theme's written profile, against 1 for its description's. */
  namedWeight: 3,
  /** Weight of the written profile in a theme's centroid, against 1 for the mean of its examples. */
  profileWeight: 0.6,
  /**
   * Weight of the mean of its counter-examples taken from a theme's centroid, against 1 for its examples. A
   * pull-down of the items nearer a counter-example than every example was tried too: in the simulation of
   * corrections it took more of the theme's own items away than it kept out others.
   */
  counterShare: 0.25,
  /**
   * The organization's own items teach: each pass shares every item among the themes by its likeness to
   * them (a softmax of the cosines at this temperature), and each theme's centroid adds the mean of its share,
   * weighed `learnedWeight` against its examples; 0 passes turns it off.
   */
  learningPasses: 3,
  learnedWeight: 2,
  /** Below this many items' worth of shares, a theme learns in proportion. */
  learnedItems: 3,
  temperature: 0.05,
  /**
   * An item must reach this share of the median likeness of the items whose nearest theme this is (the
   * theme's own items, as the organization's items show it), and at least `minThreshold`.
   */
  memberShare: 0.5,
  minThreshold: 0.08,
  /**
   * An item this close (cosine) to what people told of a theme gets it whatever the learning made of the
   * centroid: a theme's many items of one kind must not push out one that says its keyword. The lowest value
   * of 0.1-0.4 that changes no figure of the evaluation sets (0.15 takes one item more on a tuning set).
   */
  toldThreshold: 0.2,
  /** A second or third theme needs this share of the first one's margin over its threshold. */
  nextThemeShare: 0.9,
  maxThemes: 3,
};

type Vector = Map<string, number>;

function normalized(vector: Vector): Vector {
  let sum = 0;
  for (const value of vector.values()) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (const [term, value] of vector) vector.set(term, value / norm);
  return vector;
}

function dot(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, value] of small) sum += value * (large.get(term) ?? 0);
  return sum;
}

function addTo(target: Vector, vector: Vector, weight: number): void {
  for (const [term, value] of vector) target.set(term, (target.get(term) ?? 0) + value * weight);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Softmax of `scores` at `temperature`, 0 where `excluded`. */
function shares(scores: readonly number[], temperature: number, excluded: (k: number) => boolean): number[] {
  const top = Math.max(...scores);
  const weights = scores.map((score, k) => (excluded(k) ? 0 : Math.exp((score - top) / temperature)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (total > 0 ? weight / total : 0));
}

interface PreparedTheme {
  id: string;
  profile: Vector;
  examples: Vector[];
  /** What a person told of it: examples, profile and counter-examples. */
  told: Vector;
  /** `told` alone, as a unit vector: what the learning never takes away. */
  toldCentroid: Vector;
  centroid: Vector;
  threshold: number;
}

/**
 * Scores texts against curated themes with the terms similarity uses (stems and the concepts they name,
 * weighed by rarity in the organization's items: `corpus`): an item's likeness (cosine) to a theme's
 * centroid. The centroid starts as what people told (the mean of its examples, its written profile: label,
 * keywords, description, less the mean of its counter-examples) and learns from the organization's own
 * items: a few passes share each item among the themes by likeness and add each theme's share (a seeded,
 * soft k-means; an item is never shared to a theme it is a counter-example of, and examples stay their
 * theme's). Each theme's threshold is a share of the median likeness of the items nearest to it, so it
 * follows how alike the theme's own items are; an item close enough to what people told clears it too.
 * An item gets the themes it clears, by margin, the best first: none when it clears none.
 */
export function themeMatcher(themes: readonly ThemeSpec[], corpus: readonly MatchText[], settings = MATCH_SETTINGS) {
  const termCache = new Map<string, string[]>();
  const termsOf = (text: MatchText) => {
    let terms = termCache.get(text.id);
    if (!terms) termCache.set(text.id, (terms = textTerms(`${text.title ?? ''}. ${text.text}`)));
    return terms;
  };
  const df = new Map<string, number>();
  for (const item of corpus) for (const term of termsOf(item)) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log(1 + (corpus.length + 1) / ((df.get(term) ?? 0) + 1));
  const vectorOf = (terms: readonly string[], weight = 1, into: Vector = new Map()) => {
    for (const term of terms) into.set(term, Math.max(into.get(term) ?? 0, idf(term) * weight));
    return into;
  };
  const itemVector = (text: MatchText) => normalized(vectorOf(termsOf(text)));

  const prepared: PreparedTheme[] = themes.map((theme) => {
    const named = textTerms([theme.label, ...theme.keywords].join('. '));
    const profile = vectorOf(named, settings.namedWeight);
    if (theme.description) vectorOf(textTerms(theme.description), 1, profile);
    normalized(profile);
    const examples = theme.examples.map(itemVector);
    const counter = theme.counterExamples.map(itemVector);
    const told: Vector = new Map();
    for (const example of examples) addTo(told, example, 1 / examples.length);
    addTo(told, profile, examples.length > 0 ? settings.profileWeight : 1);
    for (const vector of counter) addTo(told, vector, -settings.counterShare / counter.length);
    return {
      id: theme.id,
      profile,
      examples,
      told,
      toldCentroid: normalized(new Map(told)),
      centroid: normalized(new Map(told)),
      threshold: 0,
    };
  });

  // Which themes each corpus item is told to be (an example) or not to be (a counter-example) of.
  const toldOf = (kind: 'examples' | 'counterExamples') => {
    const of = new Map<string, Set<number>>();
    themes.forEach((theme, k) => {
      for (const text of theme[kind]) of.set(text.id, new Set([...(of.get(text.id) ?? []), k]));
    });
    return of;
  };
  const exampleOf = toldOf('examples');
  const counterOf = toldOf('counterExamples');
  const vectors = prepared.length > 0 ? corpus.map(itemVector) : [];
  const shareOf = (i: number, scores: readonly number[]) => {
    const given = exampleOf.get(corpus[i].id);
    if (given) return scores.map((_, k) => (given.has(k) ? 1 / given.size : 0));
    // An item like no theme teaches none (shared evenly, it would blur them all).
    if (Math.max(...scores) < settings.minThreshold) return [];
    const not = counterOf.get(corpus[i].id);
    return shares(scores, settings.temperature, (k) => not?.has(k) ?? false);
  };
  for (let pass = 0; pass < settings.learningPasses; pass += 1) {
    const learned = prepared.map((): Vector => new Map());
    const totals = prepared.map(() => 0);
    vectors.forEach((vector, i) => {
      shareOf(
        i,
        prepared.map((theme) => dot(vector, theme.centroid)),
      ).forEach((share, k) => {
        if (share < 1e-3) return;
        addTo(learned[k], vector, share);
        totals[k] += share;
      });
    });
    prepared.forEach((theme, k) => {
      const centroid = new Map(theme.told);
      // A theme few items lean to learns in proportion: the mean of a few items' slivers is not its own.
      const weight = settings.learnedWeight * Math.min(1, totals[k] / settings.learnedItems);
      if (totals[k] > 0) addTo(centroid, learned[k], weight / totals[k]);
      theme.centroid = normalized(centroid);
    });
  }
  const members = prepared.map((): number[] => []);
  for (const vector of vectors) {
    const scores = prepared.map((theme) => dot(vector, theme.centroid));
    const best = scores.indexOf(Math.max(...scores));
    if (scores[best] > 0) members[best].push(scores[best]);
  }
  prepared.forEach((theme, k) => {
    theme.threshold = Math.max(
      settings.minThreshold,
      members[k].length > 0 ? settings.memberShare * median(members[k]) : 0,
    );
  });

  const matchVector = (vector: Vector): ComputedMatch[] => {
    const cleared: Array<{ theme: PreparedTheme; margin: number; byExamples: boolean }> = [];
    for (const theme of prepared) {
      const score = dot(vector, theme.centroid);
      const nearestExample = Math.max(0, ...theme.examples.map((example) => dot(vector, example)));
      const toldMargin = dot(vector, theme.toldCentroid) / settings.toldThreshold;
      if (score < theme.threshold && toldMargin < 1) continue;
      cleared.push({
        theme,
        margin: Math.max(score / theme.threshold, toldMargin),
        byExamples: theme.examples.length > 0 && nearestExample >= dot(vector, theme.profile),
      });
    }
    cleared.sort((a, b) => b.margin - a.margin || (a.theme.id < b.theme.id ? -1 : 1));
    return cleared
      .filter(({ margin }, i) => i === 0 || margin >= cleared[0].margin * settings.nextThemeShare)
      .slice(0, settings.maxThemes)
      .map(({ theme, margin, byExamples }) => ({
        themeId: theme.id,
        confidence: Math.round(Math.min(1, margin / 2) * 1000) / 1000,
        assignedBy: byExamples ? 'examples' : 'keywords',
      }));
  };

  return {
    /** The themes `text` matches, best first (none when it clears no theme's threshold). */
    match: (text: MatchText): ComputedMatch[] => matchVector(itemVector(text)),
  };
}
