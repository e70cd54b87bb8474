import { contentWords, spellingOf, Spellings } from '../terms';
import type { ComputedTheme, ThemeInput, ThemeResult } from './themeClustering';
import type { PreviousTheme } from './data/themeStore';
import { continuedThemes } from './themeContinuity';

/**
 * The knobs of the automatic themes by an embedding model's vectors, chosen on the tuning themes sets with
 * the test model server's vectors (`npm run eval:intelligence -- --tune --test-vectors`).
 */
export const VECTOR_THEME_SETTINGS = {
  /** The vectors are used when at least this share of the items have one; else the local method answers. */
  minEmbeddedShare: 0.8,
  /** Themes are seeded from this many of the newest embedded items (bounds the comparisons: see below). */
  seedItems: 2_000,
  /** An item joins a theme whose centroid it is at least this close to (cosine), else it seeds a new one. */
  joinCosine: 0.3,
  /** Passes that move every item to its nearest theme and compute the centroids again. */
  refinePasses: 2,
  /** A theme needs this many items to be kept. */
  minThemeSize: 3,
  /** Keywords shown per theme. */
  keywords: 10,
  sameThemeJaccard: 0.3,
  mergedShare: 0.5,
};

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
};

function unit(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(vector, vector));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

interface Cluster {
  sum: Float32Array;
  centroid: Float32Array;
  members: string[];
}

function addTo(cluster: Cluster, id: string, vector: Float32Array): void {
  for (let i = 0; i < vector.length; i += 1) cluster.sum[i] += vector[i];
  cluster.centroid = unit(cluster.sum);
  cluster.members.push(id);
}

/** The nearest cluster of `vector` and its cosine (clusters of another length never). */
function nearest(clusters: readonly Cluster[], vector: Float32Array): { cluster?: Cluster; score: number } {
  let best: Cluster | undefined;
  let score = -Infinity;
  for (const cluster of clusters) {
    if (cluster.centroid.length !== vector.length) continue;
    const s = dot(vector, cluster.centroid);
    if (s > score) [best, score] = [cluster, s];
  }
  return { cluster: best, score };
}

/**
 * The label and keywords of a theme by its items' words: the stems most particular to it (frequent in its
 * items, rare in the others'), as they are most often written. The chat model may name it better later.
 */
function describe(members: readonly string[], termsOf: Map<string, Set<string>>, df: Map<string, number>, n: number) {
  const counts = new Map<string, number>();
  for (const id of members) for (const term of termsOf.get(id) ?? []) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts]
    .filter(([, count]) => count >= 2 || members.length < 4)
    .map(([term, count]) => ({ term, score: count * Math.log(1 + n / (df.get(term) ?? 1)) }))
    .sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1))
    .map(({ term }) => term);
}

/**
 * Automatic themes from the embedding model's vectors, in place of the terms' (themeClustering.ts) when an
 * embedding model is configured (use `themes`) and has embedded most items. Themes are seeded from the
 * newest `seedItems` embedded items, oldest first (an item joins the nearest theme it is `joinCosine` close
 * to, else seeds its own); then every embedded item goes to its nearest theme that close and the centroids
 * are computed again, `refinePasses` times. Comparisons stay bounded: seeding compares each seed item with
 * the themes so far, the passes each item with the kept themes. Each item has one theme at most; items not
 * embedded yet have none until their vector is in. Labels are the themes' most particular words; ids and
 * merges carry over from `previous` as in the terms' computation. Null when too few items are embedded.
 */
export function computeVectorThemes(
  items: readonly ThemeInput[],
  vectors: ReadonlyMap<string, Float32Array>,
  previous: PreviousTheme[],
  newId: () => string,
  settings = VECTOR_THEME_SETTINGS,
): ThemeResult | null {
  const embedded = items
    .filter((item) => vectors.has(item.id))
    .map((item) => ({ id: item.id, vector: unit(vectors.get(item.id)!) }));
  if (items.length === 0 || embedded.length < items.length * settings.minEmbeddedShare) return null;
  const oldestFirst = [...embedded].sort((a, b) => (a.id < b.id ? -1 : 1));

  let clusters: Cluster[] = [];
  for (const { id, vector } of oldestFirst.slice(-settings.seedItems)) {
    const { cluster, score } = nearest(clusters, vector);
    if (cluster && score >= settings.joinCosine) addTo(cluster, id, vector);
    else {
      const seeded: Cluster = { sum: new Float32Array(vector.length), centroid: vector, members: [] };
      addTo(seeded, id, vector);
      clusters.push(seeded);
    }
  }
  for (let pass = 0; pass < settings.refinePasses; pass += 1) {
    const kept = clusters.filter((cluster) => cluster.members.length >= settings.minThemeSize);
    const next = kept.map((cluster) => ({
      sum: new Float32Array(cluster.sum.length),
      centroid: cluster.centroid,
      members: [] as string[],
    }));
    for (const { id, vector } of oldestFirst) {
      const { cluster, score } = nearest(next, vector);
      if (cluster && score >= settings.joinCosine) {
        for (let i = 0; i < vector.length; i += 1) cluster.sum[i] += vector[i];
        cluster.members.push(id);
      }
    }
    for (const cluster of next) cluster.centroid = unit(cluster.sum);
    clusters = next;
  }
  const kept = clusters.filter((cluster) => cluster.members.length >= settings.minThemeSize);

  const spellings = new Spellings();
  const termsOf = new Map<string, Set<string>>();
  const df = new Map<string, number>();
  for (const item of items) {
    if (!vectors.has(item.id)) continue;
    const terms = new Set<string>();
    for (const word of contentWords(`${item.title ?? ''}. ${item.text}`)) {
      if (!word || word.generic) continue;
      terms.add(word.stem);
      spellings.add(word.stem, spellingOf(word));
    }
    termsOf.set(item.id, terms);
    for (const term of terms) df.set(term, (df.get(term) ?? 0) + 1);
  }

  const { matched, folded } = continuedThemes(kept, (cluster) => cluster.members, previous, settings);
  const themes = new Map<Cluster, ComputedTheme>();
  const labels = new Set<string>();
  for (const cluster of kept
    .filter((cluster) => !folded.has(cluster))
    .sort((a, b) => b.members.length - a.members.length)) {
    const old = matched.get(cluster);
    const words = describe(cluster.members, termsOf, df, termsOf.size).map((term) => spellings.of(term));
    const keepOld = old && (old.renamed || old.named || old.label.toLowerCase() === words[0]?.toLowerCase());
    let label = keepOld ? old.label : words[0] ? words[0].charAt(0).toUpperCase() + words[0].slice(1) : 'Theme';
    if (!keepOld && labels.has(label) && words[1]) label = `${label} (${words[1]})`;
    labels.add(label);
    themes.set(cluster, {
      id: old?.id ?? newId(),
      label,
      renamed: Boolean(keepOld && old.renamed),
      keywords: words.slice(0, settings.keywords),
    });
  }
  const assignments = new Map<string, string[]>();
  for (const cluster of kept) {
    const theme = themes.get(folded.get(cluster) ?? cluster);
    if (theme) for (const id of cluster.members) if (!assignments.has(id)) assignments.set(id, [theme.id]);
  }
  return { themes: [...themes.values()], assignments };
}
