import type { ThemeMatch } from '../core';
import type { Correction } from './data/taxonomyStore';
import type { Theme } from './data/themeModel';
import { correctMatches } from './taxonomy';
import { themeMatcher, type MatchText } from './themeMatching';
import { vectorMatcher } from './vectorMatching';

/**
 * The embedding model's part of an assignment (when one is configured and the use `assignment` is on):
 * the vectors of the organization's items embedded so far, and of every curated theme's written profile.
 */
export interface ModelVectors {
  items: ReadonlyMap<string, Float32Array>;
  /** Theme id → the vector of its label, description and keywords; every theme of the taxonomy has one. */
  profiles: ReadonlyMap<string, Float32Array>;
}

/** How one organization's items get their curated themes in a computation. */
export interface CuratedAssignment {
  /** Curated theme → the theme it is under (null at the top). */
  parentOf: Map<string, string | null>;
  /** An item's curated themes, best first: people's assignments, then the matcher's; none without a taxonomy. */
  matches(item: MatchText): ThemeMatch[];
}

/**
 * The assignment of a taxonomy: each curated theme matched by its label, description, keywords and examples
 * (its exampleIds, and the items people assigned to it), pushed away from the items people took from it;
 * people's corrections then hold over what the matcher says. `texts` has the examples' and corrected
 * items' texts; `corpus` (the organization's items) weighs the terms. With `model`, an item the model
 * embedded is matched by its vector (vectorMatching.ts: the same examples, counter-examples and
 * corrections), and one not embedded yet by its terms until its vector is in.
 */
export function curatedAssignment(
  taxonomy: readonly Theme[],
  corrections: readonly Correction[],
  texts: ReadonlyMap<string, MatchText>,
  corpus: readonly MatchText[],
  model?: ModelVectors,
): CuratedAssignment {
  const parentOf = new Map(taxonomy.map((theme) => [theme.id, theme.parentId]));
  const known = corrections.filter((correction) => parentOf.has(correction.themeId));
  const textsOf = (ids: Iterable<string>) =>
    [...new Set(ids)].map((id) => texts.get(id)).filter((text): text is MatchText => text !== undefined);
  const specs = taxonomy.map((theme) => {
    const mine = known.filter((correction) => correction.themeId === theme.id);
    const taken = new Set(mine.filter((c) => !c.assigned).map((c) => c.itemId));
    const examples = [...theme.exampleIds, ...mine.filter((c) => c.assigned).map((c) => c.itemId)].filter(
      (id) => !taken.has(id),
    );
    return { theme, examples: [...new Set(examples)], taken: [...taken] };
  });
  // Built on the first item matched by its terms: with a model that embedded every item, never (it reads
  // every item's terms, and learns from the corpus, for nothing).
  let matcher: ReturnType<typeof themeMatcher> | undefined;
  const byTerms = () =>
    (matcher ??= themeMatcher(
      specs.map(({ theme, examples, taken }) => ({
        id: theme.id,
        label: theme.label,
        description: theme.description,
        keywords: theme.keywords,
        examples: textsOf(examples),
        counterExamples: textsOf(taken),
      })),
      corpus,
    ));
  const vectorsOf = (ids: readonly string[]) =>
    ids.map((id) => model!.items.get(id)).filter((vector): vector is Float32Array => vector !== undefined);
  const byVector =
    model && taxonomy.every((theme) => model.profiles.has(theme.id))
      ? vectorMatcher(
          specs.map(({ theme, examples, taken }) => ({
            id: theme.id,
            profile: model.profiles.get(theme.id)!,
            examples: vectorsOf(examples),
            counterExamples: vectorsOf(taken),
          })),
        )
      : null;
  const byItem = new Map<string, Correction[]>();
  for (const correction of known) byItem.set(correction.itemId, [...(byItem.get(correction.itemId) ?? []), correction]);
  return {
    parentOf,
    matches(item) {
      if (taxonomy.length === 0) return [];
      const vector = byVector ? model!.items.get(item.id) : undefined;
      let matches: ThemeMatch[] = vector ? byVector!.match(vector) : byTerms().match(item);
      // Oldest first, so the newest assignment ends up first.
      for (const correction of byItem.get(item.id) ?? [])
        matches = correctMatches(matches, correction.themeId, correction.assigned);
      return matches;
    },
  };
}

/** The ids whose texts a taxonomy's assignment needs: examples and corrected items. */
export const neededTexts = (taxonomy: readonly Theme[], corrections: readonly Correction[]) => [
  ...new Set([...taxonomy.flatMap((theme) => theme.exampleIds), ...corrections.map((c) => c.itemId)]),
];

/**
 * Suggestions (computed themes) that mostly repeat a curated theme: at least `share` of their items have it.
 * They are not proposed.
 */
export function repeatedSuggestions(
  assignments: ReadonlyMap<string, readonly string[]>,
  curatedOf: (itemId: string) => readonly ThemeMatch[],
  share: number,
): Set<string> {
  const members = new Map<string, string[]>();
  for (const [itemId, ids] of assignments) for (const id of ids) members.set(id, [...(members.get(id) ?? []), itemId]);
  const repeated = new Set<string>();
  for (const [id, items] of members) {
    const counts = new Map<string, number>();
    for (const itemId of items)
      for (const match of curatedOf(itemId)) counts.set(match.themeId, (counts.get(match.themeId) ?? 0) + 1);
    if ([...counts.values()].some((count) => count >= items.length * share)) repeated.add(id);
  }
  return repeated;
}
