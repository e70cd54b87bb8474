import type { PreviousTheme } from './data/themeStore';
import { foldMerged } from './mergedThemes';

/**
 * Which previous theme each theme of a computation continues (it keeps that theme's id, and label while
 * it persists), and the merges people made applied: a previous theme persists in the new one that shares
 * most of its items (Jaccard index at least `sameThemeJaccard`), and themes folded into a merge target
 * (mergedThemes.ts) give it their items (`membersOf` returns each theme's item list, extended in place).
 */
export function continuedThemes<D>(
  kept: D[],
  membersOf: (draft: D) => string[],
  previous: PreviousTheme[],
  settings: { sameThemeJaccard: number; mergedShare: number },
): { matched: Map<D, PreviousTheme>; folded: Map<D, D> } {
  const pairs: Array<{ draft: D; old: PreviousTheme; jaccard: number }> = [];
  for (const draft of kept) {
    const mine = new Set(membersOf(draft));
    for (const old of previous) {
      let shared = 0;
      for (const id of old.members) if (mine.has(id)) shared += 1;
      const jaccard = shared / (mine.size + old.members.length - shared || 1);
      if (jaccard >= settings.sameThemeJaccard) pairs.push({ draft, old, jaccard });
    }
  }
  pairs.sort((a, b) => b.jaccard - a.jaccard || (a.old.id < b.old.id ? -1 : 1));
  const matched = new Map<D, PreviousTheme>();
  const taken = new Set<string>();
  for (const { draft, old } of pairs) {
    if (matched.has(draft) || taken.has(old.id)) continue;
    matched.set(draft, old);
    taken.add(old.id);
  }
  const folded = foldMerged(kept, matched, previous, membersOf, settings.mergedShare);
  for (const [draft, into] of folded) {
    const held = new Set(membersOf(into));
    membersOf(into).push(...membersOf(draft).filter((id) => !held.has(id)));
  }
  return { matched, folded };
}
