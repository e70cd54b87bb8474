import type { ThemeMatch } from '../core';

/** A curated theme as the embedding model sees it: the vector of what a person wrote, and its items' vectors. */
export interface VectorThemeSpec {
  id: string;
  /** The vector of its label, description and keywords (see themeProfileText). */
  profile: Float32Array;
  /** Vectors of its examples (and of the items people assigned to it) that are embedded. */
  examples: readonly Float32Array[];
  /** Vectors of the items people took from it that are embedded. */
  counterExamples: readonly Float32Array[];
}

/**
 * The knobs of the assignment by a model's vectors, chosen on the tuning themes sets with
 * `npm run eval:intelligence -- --curated --test-vectors` (see docs/intelligence.md for what that shows).
 * Thresholds are relative to each theme's own examples where it has some, so they follow the scale of
 * the model's cosines (one model's unrelated texts are at 0.1, another's at 0.4).
 */
export const VECTOR_MATCH_SETTINGS = {
  /** Weight of the written profile in a theme's centroid, against 1 for the mean of its examples. */
  profileWeight: 1,
  /** Share of the examples' own (leave-one-out) likeness to the centroid, median, that an item must reach. */
  exampleShare: 0.6,
  /** The lowest threshold of a theme with examples, and the threshold of one without (its profile alone). */
  minThreshold: 0.2,
  profileThreshold: 0.2,
  /** A second or third theme needs this share of the first one's margin over its threshold. */
  nextThemeShare: 0.9,
  maxThemes: 3,
};

/** What a person wrote of a theme, as one text to embed. */
export const themeProfileText = (theme: { label: string; description: string | null; keywords: readonly string[] }) =>
  [theme.label, theme.description ?? '', theme.keywords.join(', ')].filter(Boolean).join('\n');

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
};

function unit(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(vector, vector));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

/** The normalized weighted mean of `vectors` and `profile` (weight `profileWeight` against 1 for the mean). */
function centroidOf(profile: Float32Array, vectors: readonly Float32Array[], profileWeight: number): Float32Array {
  const centroid = new Float32Array(profile.length);
  for (const vector of vectors) for (let i = 0; i < centroid.length; i += 1) centroid[i] += vector[i] / vectors.length;
  const weight = vectors.length > 0 ? profileWeight : 1;
  for (let i = 0; i < centroid.length; i += 1) centroid[i] += profile[i] * weight;
  return unit(centroid);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Scores item vectors against curated themes by the embedding model (the counterpart of themeMatcher's
 * terms): an item's cosine to the theme's centroid (the mean of its examples' vectors and its profile's).
 * Each theme's threshold is a share of its examples' likeness to it (each left out in turn), or a fixed
 * one without examples; an item nearer a counter-example than to every example and to the centroid is
 * not the theme's. Vectors of different lengths (another model's) never match.
 */
export function vectorMatcher(themes: readonly VectorThemeSpec[], settings = VECTOR_MATCH_SETTINGS) {
  const prepared = themes.map((theme) => {
    const profile = unit(theme.profile);
    const examples = theme.examples.filter((v) => v.length === profile.length).map(unit);
    const centroid = centroidOf(profile, examples, settings.profileWeight);
    let threshold = settings.profileThreshold;
    if (examples.length > 0) {
      const own = examples.map((example, i) =>
        dot(
          example,
          centroidOf(
            profile,
            examples.filter((_, j) => j !== i),
            settings.profileWeight,
          ),
        ),
      );
      threshold = Math.max(settings.minThreshold, settings.exampleShare * median(own));
    }
    const counter = theme.counterExamples.filter((v) => v.length === profile.length).map(unit);
    return { id: theme.id, centroid, examples, counter, threshold };
  });

  return {
    /** The themes the vector matches, best first (none when it clears no theme's threshold). */
    match(vector: Float32Array): ThemeMatch[] {
      const item = unit(vector);
      const cleared: Array<{ id: string; margin: number }> = [];
      for (const theme of prepared) {
        if (theme.centroid.length !== item.length) continue;
        const score = dot(item, theme.centroid);
        if (score < theme.threshold) continue;
        const nearestCounter = Math.max(-1, ...theme.counter.map((counter) => dot(item, counter)));
        const nearestExample = Math.max(-1, ...theme.examples.map((example) => dot(item, example)));
        if (nearestCounter > nearestExample && nearestCounter > score) continue;
        cleared.push({ id: theme.id, margin: score / theme.threshold });
      }
      cleared.sort((a, b) => b.margin - a.margin || (a.id < b.id ? -1 : 1));
      return cleared
        .filter(({ margin }, i) => i === 0 || margin >= cleared[0].margin * settings.nextThemeShare)
        .slice(0, settings.maxThemes)
        .map(({ id, margin }) => ({
          themeId: id,
          confidence: Math.round(Math.min(1, margin / 2) * 1000) / 1000,
          assignedBy: 'model' as const,
        }));
    },
  };
}
