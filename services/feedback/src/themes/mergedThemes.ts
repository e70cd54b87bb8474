import type { PreviousTheme } from './data/themeStore';

/**
 * A computation's themes after the merges people made (`mergeFeedbackThemes`). The computation itself
 * would split a merged theme again the next time (customers name one area in several words), so:
 * - a theme that continues one merged into a target joins the theme that continues the target;
 * - a new theme (one keeping no previous id) most of whose items (`share`) belong to a target joins it,
 *   so a part split off it stays in;
 * - when no theme continues the target, the first such theme takes the target's id.
 * Returns which themes join which; `matched` (theme → the previous theme whose id it keeps) is updated
 * for the themes that take a target's id.
 */
export function foldMerged<D>(
  drafts: D[],
  matched: Map<D, PreviousTheme>,
  previous: PreviousTheme[],
  membersOf: (draft: D) => string[],
  share: number,
): Map<D, D> {
  const folded = new Map<D, D>();
  const byId = new Map(previous.map((old) => [old.id, old]));
  const targets = new Map<string, { theme: PreviousTheme; members: Set<string> }>();
  for (const old of previous) {
    const theme = old.mergedInto ? byId.get(old.mergedInto) : undefined;
    if (theme) targets.set(theme.id, { theme, members: new Set(theme.members) });
  }
  if (targets.size === 0) return folded;
  const holders = new Map<string, D>();
  for (const [draft, old] of matched) if (targets.has(old.id)) holders.set(old.id, draft);
  for (const draft of drafts) {
    const old = matched.get(draft);
    if (old && holders.get(old.id) === draft) continue;
    const mine = membersOf(draft);
    // A theme that keeps another one's id is that theme, not a part split off a target.
    const target = old
      ? targets.get(old.mergedInto ?? '')
      : [...targets.values()].find(({ members }) => mine.filter((id) => members.has(id)).length >= mine.length * share);
    if (!target) continue;
    const holder = holders.get(target.theme.id);
    if (holder) folded.set(draft, holder);
    else {
      matched.set(draft, target.theme);
      holders.set(target.theme.id, draft);
    }
  }
  return folded;
}
