import { runPasses, type BackgroundWorker, type Logger } from '@fi/shared';
import { newObjectIdHex } from '@fi/shared/database';
import { noModelThemes, type ItemVectors, type ModelThemes } from '../ai';
import { DAY_MS, type ThemeMatch } from '../core';
import {
  changedSince,
  MAX_THEMED_ITEMS,
  type PreviousTheme,
  type ThemedItem,
  type ThemeStore,
} from './data/themeStore';
import {
  curatedAssignment,
  neededTexts,
  repeatedSuggestions,
  type CuratedAssignment,
  type ModelVectors,
} from './curatedAssignment';
import { themeNaming, NAMING_ITEMS, type ThemeNaming, type UnnamedTheme } from './themeNaming';
import { themeProfiles, type ThemeProfiles } from './themeProfiles';
import { computeVectorThemes } from './vectorClustering';
import { writeCorrection } from './curatedThemes';
import { composeThemeIds } from './taxonomy';
import type { MatchText } from './themeMatching';
import { addThemes, type DayToCount, type ThemeFigures, type ThemedItem as CountedItem } from './data/themeDays';
import { computeThemes } from './themeClustering';

/** An instance computing an organization's themes holds its run this long at most. */
const LEASE_MS = 5 * 60_000;

/** Marked days per read: a week at most, so one read stays well inside its time limit at an organization's busiest. */
const WINDOW_DAYS = 7;

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`).getTime();

/** Days to count grouped by day into windows spanning at most WINDOW_DAYS days, in day order. */
function dayWindows(days: DayToCount[]): DayToCount[][] {
  const sorted = [...days].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const windows: DayToCount[][] = [];
  for (const day of sorted) {
    const current = windows[windows.length - 1];
    if (current && dayStart(day.day) - dayStart(current[0].day) < WINDOW_DAYS * DAY_MS) current.push(day);
    else windows.push([day]);
  }
  return windows;
}

/**
 * Marked days holding at least this share of the organization's days (a taxonomy change or a first
 * computation marks nearly all) are counted in one pass over all its items, in `_id` pages, instead of one
 * read per window: on the embedded engine each window's read by date costs about as much as reading every
 * item of the organization (measured: 26 windows of 10,000 items, 8-14 s against 2-3 s in one pass).
 */
export const ONE_PASS_SHARE = 0.5;

/**
 * Counts again, from their items, the theme figures of the days marked by a computation and of those whose
 * kept counts changed since the last pass (every day, the first time); the run's lease holder only, so that
 * a computation's marks are counted after its writes. Marked days are read in windows of up to WINDOW_DAYS
 * consecutive days, every source at once (one index-served read per window instead of one per day and
 * source: after a bulk import every day changed), or all in one pass over the organization's items when
 * they are most of its days (ONE_PASS_SHARE); written in one bulk write per window. Returns the days counted.
 */
export async function refreshThemeDays(store: ThemeStore, orgId: string, now = new Date()): Promise<number> {
  const run = await store.run(orgId);
  const since = changedSince(run);
  if (since === null) await store.days.markAll(orgId);
  const days = await store.days.toCount(orgId, since ?? now);
  const windows = dayWindows(days);
  const figures = new Map(days.map((day) => [`${day.day} ${day.source}`, {} as ThemeFigures]));
  const add = (item: CountedItem) => {
    const day = figures.get(`${item.day} ${item.source}`);
    if (day) addThemes(day, item.themeIds, item.sentiment);
  };
  const onePass = windows.length > 1 && days.length >= ONE_PASS_SHARE * (await store.days.dayCount(orgId));
  if (onePass) for await (const item of store.days.everyItem(orgId)) add(item);
  for (const window of windows) {
    if (!onePass) {
      const start = new Date(dayStart(window[0].day));
      const end = new Date(dayStart(window[window.length - 1].day) + DAY_MS);
      for await (const item of store.days.themedItems(orgId, undefined, start, end)) add(item);
    }
    await store.days.write(
      orgId,
      window.map((day) => ({ ...day, t: figures.get(`${day.day} ${day.source}`)! })),
    );
  }
  await store.counted(orgId, now);
  return days.length;
}

/**
 * How long a computation waits for the vectors of a changed taxonomy's profiles (a few short texts, one
 * request): when they come in meanwhile, the items are assigned and written once, by the vectors.
 */
export const PROFILE_WAIT_MS = 10_000;

/** Items per batch of the curated assignment of the items older than the newest MAX_THEMED_ITEMS. */
export const OLDER_ITEMS_BATCH = 2_000;

/** A suggestion at least this share of whose items have one curated theme repeats it: it is not proposed. */
export const REPEATED_SHARE = 0.6;

/**
 * Confidences closer than this are the same: each new item moves every score a little (term rarity, items
 * that teach), and rewriting every item for it would make each computation write the whole organization.
 */
const CONFIDENCE_STEP = 0.05;

const sameMatches = (a: ThemeMatch[], b: ThemeMatch[]) =>
  a.length === b.length &&
  a.every(
    (m, i) =>
      m.themeId === b[i].themeId &&
      m.assignedBy === b[i].assignedBy &&
      Math.abs(m.confidence - b[i].confidence) < CONFIDENCE_STEP,
  );

/** An item's new themes, and whether they differ from those it has. */
function changeOf(item: ThemedItem, matches: ThemeMatch[], suggested: string[], parentOf: Map<string, string | null>) {
  const after = composeThemeIds(matches, suggested, parentOf);
  const changed = !sameIds(item.themeIds, after) || !sameMatches(item.matches, matches);
  return changed ? { id: item.id, after, matches, day: item.day, source: item.source } : null;
}

/**
 * The models a computation reads (see ModelThemes): the embedding model's vectors (when the assignment or
 * the automatic themes use them), the vectors of the curated themes' profiles (assignment), whether the
 * automatic themes come from the vectors, and the chat model naming them.
 */
export interface ThemeComputationModel {
  vectors: ItemVectors | null;
  profiles: ThemeProfiles | null;
  clustering: boolean;
  naming: ThemeNaming | null;
}

export const localThemeComputation: ThemeComputationModel = {
  vectors: null,
  profiles: null,
  clustering: false,
  naming: null,
};

/**
 * The models of a theme worker: `ready` is called when something the model was asked for in the background
 * came in or may be asked again (the organization is then computed again), and a failed request is not
 * repeated before `retryMs`.
 */
export function themeComputationModel(
  models: ModelThemes,
  store: ThemeStore,
  ready: (orgId: string) => void,
  retryMs: number,
  logger: Logger,
): ThemeComputationModel {
  return {
    vectors: models.assignment ?? models.clustering,
    profiles: models.assignment ? themeProfiles(models.assignment, ready, retryMs) : null,
    clustering: models.clustering !== null,
    naming: models.names ? themeNaming(models.names, store, ready, retryMs, logger) : null,
  };
}

/**
 * What the items and the taxonomy looked like (see ThemeStore.fingerprint), and, with a model, the
 * organization's vectors: an item's vector coming in has its themes computed again (from its vector).
 */
async function fingerprintOf(store: ThemeStore, orgId: string, model: ThemeComputationModel) {
  const [base, stamp] = await Promise.all([store.fingerprint(orgId), model.vectors?.stamp(orgId)]);
  return stamp === undefined ? base : `${base}|${stamp}`;
}

/**
 * Computes one organization's themes now and stores them, with the theme figures of the days they changed;
 * returns how many suggested themes it has. Every item gets its curated themes (curatedAssignment.ts): the
 * newest MAX_THEMED_ITEMS with the suggestions computed from them, older ones in batches of
 * OLDER_ITEMS_BATCH keeping their suggestions. Suggestions that repeat a curated theme are left out. A
 * correction made during the computation is written again after it, so it holds whatever was read before.
 * With an embedding model (`model.assignment`), the items it embedded are assigned by their vectors once
 * every curated theme's profile has its vector (asked for when the taxonomy changed, waited for up to
 * PROFILE_WAIT_MS; by terms until they are in).
 */
export async function recomputeThemes(
  store: ThemeStore,
  orgId: string,
  now = new Date(),
  model: ThemeComputationModel = localThemeComputation,
): Promise<number> {
  const started = new Date();
  const fingerprint = await fingerprintOf(store, orgId, model);
  const vectors = model.vectors ? await model.vectors.all(orgId) : null;
  const [taxonomy, corrections] = await Promise.all([
    store.taxonomy.curated(orgId),
    store.taxonomy.correctionsOf(orgId),
  ]);
  const items = await store.itemsOf(orgId, MAX_THEMED_ITEMS);
  const byId = new Map<string, MatchText>(items.map((item) => [item.id, item]));
  const missing = neededTexts(taxonomy, corrections).filter((id) => !byId.has(id));
  for (const [id, text] of await store.taxonomy.texts(orgId, missing)) byId.set(id, { id, ...text });
  const profiles =
    vectors && model.profiles && taxonomy.length > 0
      ? await model.profiles.settled(orgId, taxonomy, PROFILE_WAIT_MS)
      : null;
  const byModel: ModelVectors | undefined = vectors && profiles ? { items: vectors, profiles } : undefined;
  const curated = curatedAssignment(taxonomy, corrections, byId, items, byModel);
  const matches = new Map(items.map((item) => [item.id, curated.matches(item)]));

  const previous = await store.previous(orgId, items);
  const newId = () => `th_${newObjectIdHex()}`;
  const computed =
    (model.clustering && vectors && computeVectorThemes(items, vectors, previous, newId)) ||
    computeThemes(items, previous, newId);
  const repeated = repeatedSuggestions(computed.assignments, (id) => matches.get(id) ?? [], REPEATED_SHARE);
  const themes = computed.themes.filter((theme) => !repeated.has(theme.id));
  const changes = items
    .map((item) =>
      changeOf(
        item,
        matches.get(item.id)!,
        (computed.assignments.get(item.id) ?? []).filter((id) => !repeated.has(id)),
        curated.parentOf,
      ),
    )
    .filter((change) => change !== null);
  await store.save(orgId, themes, changes, now);
  if (model.naming) model.naming.request(orgId, unnamed(themes, previous, computed.assignments, items));
  if (items.length === MAX_THEMED_ITEMS) await assignOlder(store, orgId, items[items.length - 1].id, curated);
  // A correction made after the items were read may have been written over: written again.
  for (const correction of await store.taxonomy.correctionsOf(orgId, started))
    await writeCorrection(store.taxonomy, orgId, correction, curated.parentOf);
  await refreshThemeDays(store, orgId, now);
  await store.finish(orgId, fingerprint, now);
  return themes.length;
}

/** The computed themes neither a person nor the chat model named yet, with their items, newest first. */
function unnamed(
  themes: ReadonlyArray<{ id: string }>,
  previous: readonly PreviousTheme[],
  assignments: ReadonlyMap<string, readonly string[]>,
  items: readonly ThemedItem[],
): UnnamedTheme[] {
  const named = new Set(previous.filter((old) => old.named || old.renamed).map((old) => old.id));
  const itemsOf = new Map<string, ThemedItem[]>(themes.filter((t) => !named.has(t.id)).map((t) => [t.id, []]));
  for (const item of items)
    for (const id of assignments.get(item.id) ?? []) {
      const members = itemsOf.get(id);
      if (members && members.length < NAMING_ITEMS) members.push(item);
    }
  return [...itemsOf].map(([id, members]) => ({ id, items: members }));
}

/** The curated themes of the items older than `olderThan`, in batches; their suggestions stay as they are. */
async function assignOlder(store: ThemeStore, orgId: string, olderThan: string, curated: CuratedAssignment) {
  for (let after = olderThan; ;) {
    const batch = await store.itemsOf(orgId, OLDER_ITEMS_BATCH, OLDER_ITEMS_BATCH, after);
    const changes = batch
      .map((item) => {
        const matched = new Set(item.matches.map((match) => match.themeId));
        const suggested = item.themeIds.filter((id) => !curated.parentOf.has(id) && !matched.has(id));
        return changeOf(item, curated.matches(item), suggested, curated.parentOf);
      })
      .filter((change) => change !== null);
    await store.writeItems(orgId, changes);
    if (batch.length < OLDER_ITEMS_BATCH) return;
    after = batch[batch.length - 1].id;
  }
}

/** After a failed request to the model, it is not asked again for that organization before this many passes. */
const MODEL_RETRY_PASSES = 6;

/**
 * Keeps every organization's themes current in the background: every `intervalMs`, each organization
 * whose items changed since its last computation (count or newest id) is recomputed by whichever
 * instance takes its lease first, and one whose items changed otherwise (a status or sentiment) has the
 * theme figures of the changed days counted again. With the default interval, an item is in the
 * themes, and a change in the theme figures of whole days, within about a minute.
 */
export function startThemeWorker(
  store: ThemeStore,
  intervalMs: number,
  logger: Logger,
  models: ModelThemes = noModelThemes,
): BackgroundWorker {
  // Organizations for which a model's answer came in since their last computation.
  const again = new Set<string>();
  const model = themeComputationModel(
    models,
    store,
    (orgId) => again.add(orgId),
    MODEL_RETRY_PASSES * intervalMs,
    logger,
  );
  const pass = async (closed: () => boolean) => {
    for (const orgId of await store.organizations()) {
      if (closed()) return;
      const run = await store.run(orgId);
      const themesStale = again.has(orgId) || run?.fingerprint !== (await fingerprintOf(store, orgId, model));
      if (!themesStale && !(await store.countsStale(orgId, run))) continue;
      if (!(await store.lease(orgId, LEASE_MS))) continue;
      const started = Date.now();
      try {
        if (themesStale) {
          again.delete(orgId);
          const count = await recomputeThemes(store, orgId, new Date(), model);
          logger.info({ orgId, themes: count, ms: Date.now() - started }, 'feedback themes computed');
        } else {
          const days = await refreshThemeDays(store, orgId);
          await store.release(orgId);
          if (days > 0) logger.info({ orgId, days, ms: Date.now() - started }, 'feedback theme figures counted');
        }
      } catch (error) {
        // A failed computation (a read past its time limit on a busy database) gives its lease back, so the
        // next pass tries again, instead of holding the organization for LEASE_MS; the others go on.
        await store.release(orgId).catch(() => undefined);
        logger.warn({ err: error, orgId }, 'feedback theme computation failed for an organization; tried again');
      }
    }
  };
  return runPasses(intervalMs, pass, (error) => logger.warn({ err: error }, 'feedback theme computation failed'));
}
