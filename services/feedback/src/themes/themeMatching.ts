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
 * The knobs of the assignment, chosen on the tuning themes sets (eval/intelligence/themes-tune*.jsonl)
 * with `npm run eval:intelligence -- --tune`, never on the held-out ones.
 */
export const MATCH_SETTINGS = {
  /** Weight of the label's and keywords' terms in a theme's written profile, against 1 for its description's. */
  namedWeight: 3,
  /** Weight of the written profile in a theme's centroid, against 1 for the mean of its examples. */
  profileWeight: 0.6,
  /** Share of the examples' own (leave-one-out) scores, median, that an item must reach. */
  exampleShare: 0.4,
  /** The lowest threshold of a theme with examples, and the threshold of one without (its profile alone). */
  minThreshold: 0.08,
  keywordThreshold: 0.075,
  /** How far a nearer counter-example than every example pulls the score down (times its likeness). */
  counterWeight: 0.5,
  /** A second or third theme needs this share of the first one's margin over its threshold. */
  nextThemeShare: 0.9,
  maxThemes: 3,
  /**
   * The organization's own items teach too: items whose first theme clears its threshold by this margin
   * (score / threshold) join its centroid, weighed `learnedWeight` against its examples, before the
   * assignment; 0 turns it off.
   */
  learnedMargin: 1.5,
  learnedWeight: 1,
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

interface PreparedTheme {
  id: string;
  profile: Vector;
  examples: Vector[];
  counter: Vector[];
  centroid: Vector;
  threshold: number;
}

/**
 * Scores texts against curated themes with the terms similarity uses (stems and the concepts they name,
 * weighed by rarity in the organization's items: `corpus`): an item's likeness (cosine) to a theme's
 * centroid, the mean of its examples' vectors and its written profile (label, keywords, description).
 * Each theme has its own threshold: a share of the likeness its own examples have to it (each left out of
 * the centroid in turn), or a fixed one without examples; a counter-example nearer than every example pulls
 * the score down. An item gets the themes it clears, by margin, the best first: none when it clears none.
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

  const centroidOf = (profile: Vector, examples: Vector[], learned: Vector[] = []) => {
    const centroid: Vector = new Map();
    for (const example of examples) addTo(centroid, example, 1 / examples.length);
    addTo(centroid, profile, examples.length > 0 ? settings.profileWeight : 1);
    for (const vector of learned) addTo(centroid, vector, settings.learnedWeight / learned.length);
    return normalized(centroid);
  };

  const prepared: PreparedTheme[] = themes.map((theme) => {
    const named = textTerms([theme.label, ...theme.keywords].join('. '));
    const profile = vectorOf(named, settings.namedWeight);
    if (theme.description) vectorOf(textTerms(theme.description), 1, profile);
    normalized(profile);
    const examples = theme.examples.map(itemVector);
    const centroid = centroidOf(profile, examples);
    let threshold = settings.keywordThreshold;
    if (examples.length > 0) {
      const own =
        examples.length > 1
          ? examples.map((example, i) =>
              dot(
                example,
                centroidOf(
                  profile,
                  examples.filter((_, j) => j !== i),
                ),
              ),
            )
          : [dot(examples[0], centroidOf(profile, []))];
      threshold = Math.max(settings.minThreshold, settings.exampleShare * median(own));
    }
    return { id: theme.id, profile, examples, counter: theme.counterExamples.map(itemVector), centroid, threshold };
  });

  const matchVector = (vector: Vector): ComputedMatch[] => {
    const cleared: Array<{ theme: PreparedTheme; margin: number; byExamples: boolean }> = [];
    for (const theme of prepared) {
      let score = dot(vector, theme.centroid);
      const nearestExample = Math.max(0, ...theme.examples.map((example) => dot(vector, example)));
      const nearestCounter = Math.max(0, ...theme.counter.map((counter) => dot(vector, counter)));
      if (nearestCounter > nearestExample) score -= settings.counterWeight * nearestCounter;
      if (score < theme.threshold) continue;
      cleared.push({
        theme,
        margin: score / theme.threshold,
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

  if (settings.learnedMargin > 0 && prepared.length > 0) {
    const learned = new Map<string, Vector[]>(prepared.map((theme) => [theme.id, []]));
    for (const item of corpus) {
      const vector = itemVector(item);
      const [first] = matchVector(vector);
      if (first && first.confidence * 2 >= settings.learnedMargin) learned.get(first.themeId)!.push(vector);
    }
    for (const theme of prepared) theme.centroid = centroidOf(theme.profile, theme.examples, learned.get(theme.id));
  }

  return {
    /** The themes `text` matches, best first (none when it clears no theme's threshold). */
    match: (text: MatchText): ComputedMatch[] => matchVector(itemVector(text)),
  };
}
