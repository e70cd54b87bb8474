import { badRequest } from '@fi/shared';
import type { ThemeMatch } from '../core';
import { MAX_LABEL_LENGTH } from './feedbackThemes';

export const MAX_DESCRIPTION_LENGTH = 500;
export const MAX_KEYWORDS = 20;
export const MAX_KEYWORD_LENGTH = 60;
export const MAX_EXAMPLE_IDS = 20;
/** A top-level theme, its children and theirs: a taxonomy deeper than that is no longer read at a glance. */
export const MAX_LEVELS = 3;

/** What a person says a curated theme is (FeedbackThemeInput), checked and trimmed. */
export interface CuratedFields {
  label: string;
  description: string | null;
  keywords: string[];
  /** Null when the input has none (null or absent): a new theme has no examples, a changed one keeps its own. */
  exampleIds: string[] | null;
  parentId: string | null;
}

/** The FeedbackThemeInput as the API receives it. */
export interface ThemeInput {
  label: string;
  description?: string | null;
  keywords?: readonly string[] | null;
  exampleIds?: readonly string[] | null;
  parentId?: string | null;
}

const invalid = (field: string, message: string) => badRequest(`${field} ${message}`, { argument: `input.${field}` });

/** The input trimmed, duplicates dropped, or BAD_REQUEST naming the first field that breaks a rule. */
export function parseThemeInput(input: ThemeInput): CuratedFields {
  const label = input.label.trim();
  if (label.length === 0 || label.length > MAX_LABEL_LENGTH)
    throw invalid('label', `must be 1 to ${MAX_LABEL_LENGTH} characters (got ${label.length} after trimming)`);
  const description = input.description?.trim() || null;
  if (description && description.length > MAX_DESCRIPTION_LENGTH)
    throw invalid('description', `must be at most ${MAX_DESCRIPTION_LENGTH} characters (got ${description.length})`);
  const keywords = [...new Set((input.keywords ?? []).map((keyword) => keyword.trim()))];
  if (keywords.length > MAX_KEYWORDS)
    throw invalid('keywords', `must be at most ${MAX_KEYWORDS} (got ${keywords.length})`);
  const wrong = keywords.find((keyword) => keyword.length === 0 || keyword.length > MAX_KEYWORD_LENGTH);
  if (wrong !== undefined)
    throw invalid('keywords', `must each be 1 to ${MAX_KEYWORD_LENGTH} characters (got "${wrong}")`);
  const exampleIds = input.exampleIds ? [...new Set(input.exampleIds)] : null;
  if (exampleIds && exampleIds.length > MAX_EXAMPLE_IDS)
    throw invalid('exampleIds', `must be at most ${MAX_EXAMPLE_IDS} (got ${exampleIds.length})`);
  return { label, description, keywords, exampleIds, parentId: input.parentId || null };
}

/** BAD_REQUEST for example ids that are not items of the organization. */
export function checkExamples(exampleIds: readonly string[], found: ReadonlySet<string>): void {
  const missing = exampleIds.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw invalid('exampleIds', `must be items of the organization (unknown: ${missing.join(', ')})`);
}

/** A curated theme's place in the taxonomy. */
export interface Placed {
  id: string;
  parentId: string | null;
}

/** The themes above `id`, nearest first (a cycle, which the API never writes, ends the walk). */
export function ancestorsOf(id: string, parentOf: ReadonlyMap<string, string | null>): string[] {
  const found: string[] = [];
  for (let at = parentOf.get(id); at && at !== id && !found.includes(at); at = parentOf.get(at)) found.push(at);
  return found;
}

/**
 * BAD_REQUEST (input.parentId) unless `id` (null for a new theme) may go under `parentId` in the
 * organization's curated themes: a curated theme, not the theme itself nor one below it, and the theme with
 * the levels below it at most MAX_LEVELS deep.
 */
export function checkPlacement(themes: readonly Placed[], id: string | null, parentId: string | null): void {
  if (parentId === null) return checkDepth(themes, id, 0);
  const parentOf = new Map(themes.map((theme) => [theme.id, theme.parentId]));
  if (!parentOf.has(parentId)) throw invalid('parentId', 'must be a curated theme of the organization');
  if (id !== null && (parentId === id || ancestorsOf(parentId, parentOf).includes(id)))
    throw invalid('parentId', 'must not be the theme itself or a theme under it');
  checkDepth(themes, id, ancestorsOf(parentId, parentOf).length + 1);
}

function checkDepth(themes: readonly Placed[], id: string | null, above: number): void {
  const below = id === null ? 0 : levelsBelow(themes, id);
  if (above + 1 + below > MAX_LEVELS)
    throw invalid('parentId', `would nest themes more than ${MAX_LEVELS} levels deep`);
}

/** How many levels of themes are under `id` (0 for a theme without children). */
function levelsBelow(themes: readonly Placed[], id: string, seen = new Set<string>()): number {
  seen.add(id);
  let deepest = 0;
  for (const child of themes)
    if (child.parentId === id && !seen.has(child.id))
      deepest = Math.max(deepest, 1 + levelsBelow(themes, child.id, seen));
  return deepest;
}

/** An item's curated matches after a person's correction: assigned first with confidence 1, or gone. */
export function correctMatches(matches: readonly ThemeMatch[], themeId: string, assigned: boolean): ThemeMatch[] {
  const rest = matches.filter((match) => match.themeId !== themeId);
  return assigned ? [{ themeId, confidence: 1, assignedBy: 'person' }, ...rest] : rest;
}

/**
 * An item's theme ids, as lists filter and figures count them: its curated themes best first, then the
 * themes above them (so a parent's figures and filter include its children's items), then its suggested
 * (computed) themes.
 */
export function composeThemeIds(
  matches: readonly ThemeMatch[],
  suggested: readonly string[],
  parentOf: ReadonlyMap<string, string | null>,
): string[] {
  const curated = matches.map((match) => match.themeId);
  const ids = new Set(curated);
  for (const id of curated) for (const above of ancestorsOf(id, parentOf)) ids.add(above);
  for (const id of suggested) ids.add(id);
  return [...ids];
}
