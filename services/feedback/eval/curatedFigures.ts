/**
 * The curated themes' figures on a themes set (see docs/intelligence.md, "Curated themes"): each known theme
 * is told only what a product manager would write, from `<set>.taxonomy.json` beside the set (a label, one
 * sentence and a few keywords, written from the theme's name before the assignment ran on the set) and,
 * with examples, the set's first three items of the theme. Scored: the share of the other items of the
 * known themes whose first curated theme is theirs (target 85%), and of the unrelated singles that get
 * no curated theme (target 60%).
 */
import { existsSync, readFileSync } from 'node:fs';
import { modelText } from '../src/ai/modelWork';
import type { ThemeMatch } from '../src/core';
import { curatedAssignment, themeProfileText, type Correction, type MatchText, type Theme } from '../src/themes';
import type { ModelVectors } from '../src/themes/curatedAssignment';

export interface ThemedText {
  id: number;
  theme: string | null;
  title: string;
  content: string;
}

interface Written {
  label: string;
  description: string;
  keywords: string[];
}

export interface CuratedScore {
  known: number;
  knownRight: number;
  singles: number;
  singlesNone: number;
}

/** Examples per known theme, as the issue asks a product manager for. */
export const EXAMPLES_PER_THEME = 3;

export const taxonomyPath = (setPath: string) => setPath.replace(/\.jsonl$/, '.taxonomy.json');

/** A set's taxonomy as the eval tells it, and what the assignment needs to run on the set. */
interface Told {
  texts: MatchText[];
  taxonomy: Theme[];
  /** The examples given, not scored. */
  given: Set<string>;
  model?: ModelVectors;
}

/** The taxonomy of `<set>.taxonomy.json`, with the set's first three items of each theme as examples or none; null without one. */
function told(
  setPath: string,
  items: ThemedText[],
  withExamples: boolean,
  embed?: (text: string) => Float32Array,
): Told | null {
  const path = taxonomyPath(setPath);
  if (!existsSync(path)) return null;
  const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Written>;
  const texts: MatchText[] = items.map((item) => ({ id: String(item.id), title: item.title, text: item.content }));
  const examples = new Map(
    Object.keys(written).map((name) => [
      name,
      withExamples
        ? items
            .filter((item) => item.theme === name)
            .slice(0, EXAMPLES_PER_THEME)
            .map((item) => String(item.id))
        : [],
    ]),
  );
  const taxonomy: Theme[] = Object.entries(written).map(([name, theme]) => ({
    id: name,
    orgId: 'eval',
    label: theme.label,
    description: theme.description,
    keywords: theme.keywords,
    summary: null,
    curated: true,
    parentId: null,
    exampleIds: examples.get(name)!,
  }));
  const model = embed && {
    items: new Map(
      items.map((item) => [String(item.id), embed(modelText({ title: item.title, content: item.content }))]),
    ),
    profiles: new Map(taxonomy.map((theme) => [theme.id, embed(themeProfileText(theme))])),
  };
  return { texts, taxonomy, given: new Set([...examples.values()].flat()), model };
}

/** Whether an item's curated themes are right: its own theme first, or none for an unrelated single. */
const isRight = (item: ThemedText, matches: readonly ThemeMatch[]) =>
  item.theme === null ? matches.length === 0 : matches[0]?.themeId === item.theme;

/** The figures of `items` (those `scored` says) under `corrections`. */
function scoreWith(set: Told, items: ThemedText[], corrections: Correction[], scored: (i: number) => boolean) {
  const assignment = curatedAssignment(
    set.taxonomy,
    corrections,
    new Map(set.texts.map((text) => [text.id, text])),
    set.texts,
    set.model,
  );
  const score: CuratedScore = { known: 0, knownRight: 0, singles: 0, singlesNone: 0 };
  items.forEach((item, i) => {
    if (!scored(i)) return;
    const right = isRight(item, assignment.matches(set.texts[i]));
    if (item.theme === null) {
      score.singles += 1;
      if (right) score.singlesNone += 1;
    } else {
      score.known += 1;
      if (right) score.knownRight += 1;
    }
  });
  return { score, assignment };
}

/**
 * The set's curated figures, with the examples or without (label, sentence and keywords only); null without a
 * taxonomy file. With `embed`, an embedding model's vectors of what it is sent (an item's title and text, a
 * theme's label, description and keywords) assign every item, as when a model is configured.
 */
export function scoreCurated(
  setPath: string,
  items: ThemedText[],
  withExamples: boolean,
  embed?: (text: string) => Float32Array,
): CuratedScore | null {
  const set = told(setPath, items, withExamples, embed);
  return set && scoreWith(set, items, [], (i) => !set.given.has(set.texts[i].id)).score;
}

export interface CorrectedScore {
  /** The items left after the person's review: before and after their corrections teach the assignment. */
  before: CuratedScore;
  after: CuratedScore;
  /** Items the person read to make the corrections. */
  read: number;
}

/**
 * How far an organization's corrections improve its own results: a person reads the items in the set's order
 * (the examples aside) and corrects the first `corrections` wrong ones as the API lets them (an item of a
 * known theme moved to it: assigned to it and taken from the wrong theme it had first; an unrelated single
 * taken from the theme it had first), then the assignment is computed again with those corrections. Scored on the items the
 * person did not read, before and after: what the corrections taught, not the items they fixed.
 */
export function scoreCorrected(
  setPath: string,
  items: ThemedText[],
  withExamples: boolean,
  /** How many wrong items the person corrects. */
  corrections: number,
  embed?: (text: string) => Float32Array,
): CorrectedScore | null {
  const set = told(setPath, items, withExamples, embed);
  if (!set) return null;
  const { assignment } = scoreWith(set, items, [], () => true);
  const made: Correction[] = [];
  let read = 0;
  let fixed = 0;
  for (const [i, item] of items.entries()) {
    if (fixed >= corrections) break;
    if (set.given.has(set.texts[i].id)) continue;
    read = i + 1;
    const matches = assignment.matches(set.texts[i]);
    if (isRight(item, matches)) continue;
    fixed += 1;
    const at = new Date(made.length);
    const itemId = set.texts[i].id;
    if (matches[0] && matches[0].themeId !== item.theme)
      made.push({ itemId, themeId: matches[0].themeId, assigned: false, at });
    if (item.theme !== null) made.push({ itemId, themeId: item.theme, assigned: true, at });
  }
  const rest = (i: number) => i >= read && !set.given.has(set.texts[i].id);
  return {
    before: scoreWith(set, items, [], rest).score,
    after: scoreWith(set, items, made, rest).score,
    read,
  };
}
