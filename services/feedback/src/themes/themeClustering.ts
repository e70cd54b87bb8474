import { contentWords, spellingOf, Spellings } from '../terms';
import type { PreviousTheme } from './data/themeStore';
import { continuedThemes } from './themeContinuity';

export interface ThemeInput {
  id: string;
  /** The item's title, when it has one (it names what the item is about); `text` is then the rest. */
  title?: string;
  text: string;
}

export interface ComputedTheme {
  id: string;
  label: string;
  renamed: boolean;
  keywords: string[];
}

export interface ThemeResult {
  themes: ComputedTheme[];
  /** Theme ids per item, most relevant first; items without a theme are absent. */
  assignments: Map<string, string[]>;
}

/**
 * Stems of symptoms and judgements, and things of every area of a product: every area can be slow or
 * broken and has tasks and pages, so they describe a theme (and may be among its keywords, and found
 * one in a phrase: "recurring tasks") but never found one alone ("slow" would gather slow search and
 * slow dashboards, "task" anything).
 */
const SYMPTOMS = new Set(
  (
    'slow crash fail broken break error load work stop wrong miss lost delay late duplic doubl chang updat fast quick easi hard confus annoy frustrat disappoint happi help click open button page screen way show take ' +
    'task project workspac board item list field view edit delet creat person peopl member second'
  ).split(' '),
);

/**
 * The knobs; chosen on data of the product's own (the demo seed, hand-written examples and the tuning sets
 * eval/intelligence/themes-tune*.jsonl), not on the evaluation sets.
 */
export const THEME_SETTINGS = {
  /** A term founds a theme when this many items hold it (at least), ... */
  minSupport: 3,
  /** ... or this share of the items, whichever is larger. */
  minSupportShare: 0.004,
  /** Terms in more than this share of the items say nothing specific (when more than `smallOrganization` items hold them). */
  maxShare: 0.25,
  smallOrganization: 10,
  /** A term joins a theme when at least this share of its items are already the theme's, ... */
  joinOverlap: 0.5,
  /** ... and its items join the theme's core when at least this share are (so a loose term cannot snowball). */
  coreOverlap: 0.7,
  /** Weight of a describing keyword (symptom, word of every area) in an item's relevance to a theme. */
  describerWeight: 0.5,
  /**
   * A word is one of every area (it describes, never founds) when it has at least `areaWordMinItems` items
   * and at least `areaCoverage` of them hold words of `areaMinOthers` or more other areas (each with at least
   * `areaSizeShare` as many items, `areaMinWithWord` to `areaInsideShare` of them with the word, and with
   * it in at least as many items as found a theme), none holding `areaLargestShare` of them.
   */
  areaWordMinItems: 10,
  areaCoverage: 0.4,
  areaMinOthers: 3,
  areaSizeShare: 0.5,
  areaMinWithWord: 0.15,
  areaInsideShare: 0.6,
  areaLargestShare: 0.4,
  /** An item is in a theme only when it holds one of its keywords of at least this fit (a defining word, not a loose one). */
  coreFit: 0.7,
  /** A theme needs this many items to be kept. */
  minThemeSize: 3,
  /** A second theme of an item needs this share of the first one's relevance. */
  secondThemeShare: 0.9,
  /** A theme is named by a phrase among its keywords held by at least this share of its seed's items. */
  phraseLabelShare: 0.5,
  /** ... else by a phrase of its seed and another word (in either order) held by at least this share of its items. */
  pairLabelShare: 0.3,
  /** A theme keeps the id of a previous one whose items it shares by at least this Jaccard index. */
  sameThemeJaccard: 0.3,
  /** A theme joins one a person merged others into when at least this share of its items were in it. */
  mergedShare: 0.5,
};

interface Doc {
  id: string;
  terms: Set<string>;
  /** Terms of its title (all its terms when it has none). */
  titled: Set<string>;
}

interface Draft {
  seed: string;
  keywords: string[];
  /** Per keyword, the share of its items that were the theme's when it joined (1 for the seed). */
  fit: Map<string, number>;
  /** The theme's core: items of its seed and of the keywords that fit it closely. */
  items: Set<string>;
}

/** Label of a term: its most frequent spelling in the texts ("CSV export", "dark mode"), first letter upper case. */
function labelOf(term: string, spellings: Spellings): string {
  const best = spellings.of(term);
  return best.charAt(0).toUpperCase() + best.slice(1);
}

/** The theme that holds the largest share of `set` in its core, and that share. */
function closest(set: Set<string>, drafts: Draft[]): { draft?: Draft; overlap: number } {
  let best: Draft | undefined;
  let bestOverlap = 0;
  for (const draft of drafts) {
    let shared = 0;
    for (const id of set) if (draft.items.has(id)) shared += 1;
    if (shared / set.size > bestOverlap) [best, bestOverlap] = [draft, shared / set.size];
  }
  return { draft: best, overlap: bestOverlap };
}

/**
 * The phrase of `seed` and one other word, in either order ("email notifications", "notification
 * emails"), that most of the items hold, when at least `share` of them do: a single word's theme is
 * better named by what is said of it ("Calendar sync", not "Calendar"). Written as the order most used.
 */
function commonPhrase(
  seed: string,
  items: string[],
  terms: Map<string, Set<string>>,
  minSupport: number,
  share: number,
): string | undefined {
  if (seed.includes(' ')) return undefined;
  const partners = new Map<string, { items: number; forms: Map<string, number> }>();
  for (const id of items) {
    const seen = new Set<string>();
    for (const term of terms.get(id)!) {
      const [first, second] = term.split(' ');
      if (second === undefined || first === second || (first !== seed && second !== seed)) continue;
      const partner = first === seed ? second : first;
      let found = partners.get(partner);
      if (!found) partners.set(partner, (found = { items: 0, forms: new Map() }));
      found.forms.set(term, (found.forms.get(term) ?? 0) + 1);
      if (!seen.has(partner)) found.items += 1;
      seen.add(partner);
    }
  }
  const [best] = [...partners.values()].sort((a, b) => b.items - a.items);
  if (!best || best.items < Math.max(minSupport, items.length * share)) return undefined;
  return [...best.forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
}

/**
 * Themes from frequent terms, most frequent first (two-word phrases ahead at equal weight): a term joins
 * the theme that already holds enough of its items, else founds a new one; describers (symptoms, words of
 * every area) never found one but describe the theme that holds most of their items.
 */
function draftThemes(
  frequent: Array<[string, Set<string>]>,
  describers: ReadonlySet<string>,
  settings: typeof THEME_SETTINGS,
): Draft[] {
  // Phrases first at equal weight: "dark mode" should found the theme that "mode" then joins.
  const weight = (term: string, set: Set<string>) => set.size * (term.includes(' ') ? 1.5 : 1);
  const ordered = [...frequent].sort(([a, x], [b, y]) => weight(b, y) - weight(a, x) || (a < b ? -1 : 1));
  const drafts: Draft[] = [];
  for (const [term, set] of ordered.filter(([t]) => !describers.has(t))) {
    const { draft, overlap } = closest(set, drafts);
    if (draft && overlap >= settings.joinOverlap) {
      draft.keywords.push(term);
      draft.fit.set(term, overlap);
      if (overlap >= settings.coreOverlap) for (const id of set) draft.items.add(id);
    } else {
      drafts.push({ seed: term, keywords: [term], fit: new Map([[term, 1]]), items: new Set(set) });
    }
  }
  for (const [term, set] of ordered.filter(([t]) => describers.has(t))) {
    const { draft, overlap } = closest(set, drafts);
    if (draft && overlap >= settings.joinOverlap) {
      draft.keywords.push(term);
      draft.fit.set(term, overlap);
    }
  }
  return drafts;
}

/**
 * Whether a word is one of every area of the product ("task" in a project tool, "ticket" in a help desk):
 * most of its items also hold words of other areas that live on their own (used often, mostly without
 * it), several of them and none dominant. A theme's own word instead spreads over words that live
 * inside it ("calendar": "sync", "Google") or over rare ones ("billing": "card", "VAT number").
 */
function isAreaWord(
  term: string,
  holders: Map<string, Set<string>>,
  docs: Map<string, Set<string>>,
  describes: (term: string) => boolean,
  minSupport: number,
  settings: typeof THEME_SETTINGS,
): boolean {
  const mine = holders.get(term)!;
  if (term.includes(' ') || mine.size < settings.areaWordMinItems) return false;
  const together = new Map<string, number>();
  for (const id of mine)
    for (const other of docs.get(id)!)
      if (other !== term && !other.includes(' ')) together.set(other, (together.get(other) ?? 0) + 1);
  const areas = [...together].filter(([other, shared]) => {
    const size = holders.get(other)!.size;
    const inside = shared / size;
    return (
      !describes(other) &&
      shared >= minSupport &&
      size >= mine.size * settings.areaSizeShare &&
      inside >= settings.areaMinWithWord &&
      inside < settings.areaInsideShare
    );
  });
  if (areas.length < settings.areaMinOthers) return false;
  const largest = Math.max(...areas.map(([, shared]) => shared)) / mine.size;
  let covered = 0;
  for (const id of mine) if (areas.some(([other]) => docs.get(id)!.has(other))) covered += 1;
  return covered / mine.size >= settings.areaCoverage && largest < settings.areaLargestShare;
}

/**
 * Groups items into themes by the specific terms they share (see `THEME_SETTINGS`): terms held by
 * enough items, most frequent first, either join the theme that already holds most of their items or
 * found a new one (two-word phrases before single words, symptoms never found one); an item belongs to
 * the themes whose keywords it holds, weighed by how rare each keyword is. Deterministic: the same
 * items give the same themes. Ids and renamed labels carry over from `previous` by shared items.
 */
export function computeThemes(
  items: ThemeInput[],
  previous: PreviousTheme[],
  newId: () => string,
  settings = THEME_SETTINGS,
): ThemeResult {
  const spellings = new Spellings();
  const termsOf = (text: string, terms = new Set<string>()) => {
    const words = contentWords(text);
    words.forEach((word, i) => {
      if (!word || word.generic) return;
      const next = words[i + 1];
      const found: Array<[string, string]> = [[word.stem, spellingOf(word)]];
      if (next && !next.generic) found.push([`${word.stem} ${next.stem}`, `${spellingOf(word)} ${spellingOf(next)}`]);
      for (const [term, spelling] of found) {
        terms.add(term);
        spellings.add(term, spelling);
      }
    });
    return terms;
  };
  const docs: Doc[] = items.map(({ id, title, text }) => {
    if (title === undefined) {
      const terms = termsOf(text);
      return { id, terms, titled: terms };
    }
    const titled = termsOf(title);
    return { id, terms: termsOf(text, new Set(titled)), titled };
  });

  const holders = new Map<string, Set<string>>();
  for (const doc of docs) {
    for (const term of doc.terms) {
      let set = holders.get(term);
      if (!set) holders.set(term, (set = new Set()));
      set.add(doc.id);
    }
  }
  const n = docs.length;
  const minSupport = Math.max(settings.minSupport, Math.ceil(n * settings.minSupportShare));
  const maxCount = Math.max(minSupport, settings.smallOrganization, n * settings.maxShare);
  const isPhrase = (term: string) => term.includes(' ');
  const symptomatic = (term: string) => term.split(' ').every((stem) => SYMPTOMS.has(stem));
  const frequent = [...holders].filter(([, set]) => set.size >= minSupport && set.size <= maxCount);
  const docTerms = new Map(docs.map((doc) => [doc.id, doc.terms]));
  const describers = new Set(
    frequent
      .filter(([term]) => symptomatic(term) || isAreaWord(term, holders, docTerms, symptomatic, minSupport, settings))
      .map(([term]) => term),
  );
  const drafts = draftThemes(frequent, describers, settings);

  // Each item's relevance to each theme: the theme's keywords it holds, each weighed by how often it is
  // used (a theme's main words, "invoice", outweigh a rare word that founded a small one, "switching") and
  // by the square of how well it fits the theme (loosely joined words barely count), describers by half.
  const weight = (term: string) => Math.log(1 + holders.get(term)!.size);
  const relevance = new Map<string, Array<{ draft: Draft; score: number }>>();
  for (const doc of docs) {
    const scores: Array<{ draft: Draft; score: number }> = [];
    const named = new Set<Draft>();
    for (const draft of drafts) {
      let score = 0;
      let core = false;
      for (const keyword of draft.keywords) {
        if (!doc.terms.has(keyword)) continue;
        const fit = draft.fit.get(keyword)!;
        score += weight(keyword) * fit ** 2 * (describers.has(keyword) ? settings.describerWeight : 1);
        if (describers.has(keyword) || fit < settings.coreFit) continue;
        core = true;
        if (doc.titled.has(keyword)) named.add(draft);
      }
      // An item shares a theme's concept when it holds one of the words that define it, not only loose or describing ones.
      if (score > 0 && core) scores.push({ draft, score });
    }
    // The title says what an item is about: when it names themes, a theme its text only mentions in
    // passing ("... or customers email us") is not the item's.
    if (named.size > 0) scores.splice(0, scores.length, ...scores.filter(({ draft }) => named.has(draft)));
    scores.sort((a, b) => b.score - a.score);
    const kept = scores.filter(
      ({ score }, i) => i === 0 || (i === 1 && score >= scores[0].score * settings.secondThemeShare),
    );
    if (kept.length > 0) relevance.set(doc.id, kept);
  }
  const members = new Map<Draft, string[]>(drafts.map((draft) => [draft, []]));
  for (const [id, scores] of relevance) for (const { draft } of scores) members.get(draft)!.push(id);
  const kept = drafts.filter((draft) => members.get(draft)!.length >= settings.minThemeSize);

  const { matched, folded } = continuedThemes(kept, (draft) => members.get(draft)!, previous, settings);

  const themes = new Map<Draft, ComputedTheme>();
  const labels = new Set<string>();
  for (const draft of kept
    .filter((draft) => !folded.has(draft))
    .sort((a, b) => members.get(b)!.length - members.get(a)!.length || (a.seed < b.seed ? -1 : 1))) {
    const old = matched.get(draft);
    // A label a person gave, or the one already shown while its term still describes the theme, stays.
    const shown = draft.keywords.slice(0, 10).map((keyword) => spellings.of(keyword));
    const keepOld =
      old &&
      (old.renamed ||
        old.named ||
        old.keywords.some(
          (keyword) => shown.includes(keyword) && keyword.charAt(0).toUpperCase() + keyword.slice(1) === old.label,
        ));
    // A two-word phrase names a theme better than its single word ("CSV export", not "CSV") when it is common enough.
    const named =
      draft.keywords.find(
        (k) =>
          isPhrase(k) &&
          !symptomatic(k) &&
          holders.get(k)!.size >= holders.get(draft.seed)!.size * settings.phraseLabelShare,
      ) ??
      commonPhrase(draft.seed, members.get(draft)!, docTerms, minSupport, settings.pairLabelShare) ??
      draft.seed;
    let label = keepOld ? old.label : labelOf(named, spellings);
    if (!keepOld && labels.has(label))
      label = `${label} (${labelOf(draft.keywords.find((k) => k !== draft.seed) ?? draft.seed, spellings).toLowerCase()})`;
    labels.add(label);
    themes.set(draft, { id: old?.id ?? newId(), label, renamed: Boolean(keepOld && old.renamed), keywords: shown });
  }
  const assignments = new Map<string, string[]>();
  for (const [id, scores] of relevance) {
    const ids = scores
      .map(({ draft }) => themes.get(folded.get(draft) ?? draft)?.id)
      .filter((themeId): themeId is string => themeId !== undefined);
    if (ids.length > 0) assignments.set(id, [...new Set(ids)]);
  }
  return { themes: [...themes.values()], assignments };
}
