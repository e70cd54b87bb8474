import { badRequest, notFound } from '@fi/shared';
import { FEEDBACK_NOT_FOUND, type FeedbackItem } from '../core';
import { MAX_CURATED_THEMES, type Correction, type TaxonomyStore } from './data/taxonomyStore';
import { THEME_NOT_FOUND, type ThemeView } from './feedbackThemes';
import {
  checkExamples,
  checkPlacement,
  composeThemeIds,
  correctMatches,
  MAX_EXAMPLE_IDS,
  parseThemeInput,
  type ThemeInput,
} from './taxonomy';

/** What the taxonomy's use cases need: its store, and a way to have the organization's items assigned again. */
export interface CuratedPorts {
  taxonomy: Pick<
    TaxonomyStore,
    | 'exclusive'
    | 'curated'
    | 'find'
    | 'existingItems'
    | 'insert'
    | 'replace'
    | 'remove'
    | 'accept'
    | 'correct'
    | 'itemThemes'
    | 'writeItemThemes'
    | 'item'
  >;
  /** The organization's items are assigned again at the theme worker's next pass (see curatedAssignment.ts). */
  recomputeSoon(orgId: string): Promise<void>;
}

/** Tries of a correction's write when a computation or another correction writes the item's themes meanwhile. */
const CORRECTION_TRIES = 5;

const view = <T extends object>(theme: T) => ({ ...theme, range: {} });

async function checked(ports: CuratedPorts, orgId: string, id: string | null, input: ThemeInput) {
  const fields = parseThemeInput(input);
  const curated = await ports.taxonomy.curated(orgId);
  if (id === null && curated.length >= MAX_CURATED_THEMES) throw tooMany();
  checkPlacement(curated, id, fields.parentId);
  const exampleIds = fields.exampleIds ?? [];
  checkExamples(exampleIds, await ports.taxonomy.existingItems(orgId, exampleIds));
  return fields;
}

const tooMany = () => badRequest(`an organization has at most ${MAX_CURATED_THEMES} curated themes`);

/** Adds a curated theme (see createFeedbackTheme in schema.graphql). */
export async function createCuratedTheme(ports: CuratedPorts, orgId: string, input: ThemeInput): Promise<ThemeView> {
  const theme = await ports.taxonomy.exclusive(orgId, async () =>
    ports.taxonomy.insert(orgId, await checked(ports, orgId, null, input)),
  );
  await ports.recomputeSoon(orgId);
  return view(theme);
}

/** Replaces a curated theme's fields, its examples only when the input has some (see updateFeedbackTheme). */
export async function updateCuratedTheme(
  ports: CuratedPorts,
  orgId: string,
  id: string,
  input: ThemeInput,
): Promise<ThemeView> {
  const theme = await ports.taxonomy.exclusive(orgId, async () => {
    const existing = await ports.taxonomy.find(orgId, id);
    if (!existing?.curated) throw notFound(THEME_NOT_FOUND);
    return ports.taxonomy.replace(orgId, id, await checked(ports, orgId, id, input));
  });
  if (!theme) throw notFound(THEME_NOT_FOUND);
  await ports.recomputeSoon(orgId);
  return view(theme);
}

/** Removes a curated theme; its items stay (see removeFeedbackTheme). */
export async function removeCuratedTheme(ports: CuratedPorts, orgId: string, id: string): Promise<boolean> {
  if (!(await ports.taxonomy.exclusive(orgId, () => ports.taxonomy.remove(orgId, id)))) throw notFound(THEME_NOT_FOUND);
  await ports.recomputeSoon(orgId);
  return true;
}

/** Makes a suggested theme curated under its id (see acceptFeedbackTheme). */
export async function acceptSuggestedTheme(ports: CuratedPorts, orgId: string, id: string): Promise<ThemeView> {
  const theme = await ports.taxonomy.exclusive(orgId, async () => {
    const found = await ports.taxonomy.find(orgId, id);
    if (found && !found.curated && (await ports.taxonomy.curated(orgId)).length >= MAX_CURATED_THEMES) throw tooMany();
    return ports.taxonomy.accept(orgId, id, MAX_EXAMPLE_IDS);
  });
  if (!theme) throw notFound(THEME_NOT_FOUND);
  await ports.recomputeSoon(orgId);
  return view(theme);
}

/**
 * Writes a person's correction to the item's themes, conditional on them being as read (read again and tried
 * again when a computation or another correction wrote them first); false when every try lost, or the item is
 * gone.
 */
export async function writeCorrection(
  taxonomy: Pick<TaxonomyStore, 'itemThemes' | 'writeItemThemes'>,
  orgId: string,
  correction: Pick<Correction, 'itemId' | 'themeId' | 'assigned'>,
  parentOf: ReadonlyMap<string, string | null>,
): Promise<boolean> {
  for (let tries = 0; tries < CORRECTION_TRIES; tries += 1) {
    const item = await taxonomy.itemThemes(orgId, correction.itemId);
    if (!item) return false;
    const matched = new Set(item.matches.map((match) => match.themeId));
    const suggested = item.themeIds.filter((id) => !parentOf.has(id) && !matched.has(id));
    const matches = correctMatches(item.matches, correction.themeId, correction.assigned);
    if (await taxonomy.writeItemThemes(orgId, item, composeThemeIds(matches, suggested, parentOf), matches))
      return true;
  }
  return false;
}

/**
 * A person's correction (assignFeedbackTheme, unassignFeedbackTheme): recorded, so that every later
 * assignment keeps it and learns from it, and written to the item at once with a write conditional on the
 * item's themes being as read (tried again when a computation or another correction came first).
 */
export async function correctItemTheme(
  ports: CuratedPorts,
  orgId: string,
  itemId: string,
  themeId: string,
  assigned: boolean,
): Promise<FeedbackItem> {
  const theme = await ports.taxonomy.find(orgId, themeId);
  if (!theme?.curated) throw notFound(THEME_NOT_FOUND);
  if (!(await ports.taxonomy.itemThemes(orgId, itemId))) throw notFound(FEEDBACK_NOT_FOUND);
  await ports.taxonomy.correct(orgId, itemId, themeId, assigned);
  const curated = await ports.taxonomy.curated(orgId);
  await writeCorrection(
    ports.taxonomy,
    orgId,
    { itemId, themeId, assigned },
    new Map(curated.map((one) => [one.id, one.parentId])),
  );
  // Also when every try lost to another write: the correction is recorded and the next assignment applies it.
  await ports.recomputeSoon(orgId);
  const item = await ports.taxonomy.item(orgId, itemId);
  if (!item) throw notFound(FEEDBACK_NOT_FOUND);
  return item;
}
