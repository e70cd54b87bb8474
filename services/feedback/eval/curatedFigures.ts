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
import { curatedAssignment, themeProfileText, type MatchText, type Theme } from '../src/themes';

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
  const assignment = curatedAssignment(taxonomy, [], new Map(texts.map((text) => [text.id, text])), texts, model);
  const given = new Set([...examples.values()].flat());
  const score: CuratedScore = { known: 0, knownRight: 0, singles: 0, singlesNone: 0 };
  items.forEach((item, i) => {
    if (given.has(String(item.id))) return;
    const matches = assignment.matches(texts[i]);
    if (item.theme === null) {
      score.singles += 1;
      if (matches.length === 0) score.singlesNone += 1;
    } else {
      score.known += 1;
      if (matches[0]?.themeId === item.theme) score.knownRight += 1;
    }
  });
  return score;
}
