import { seedOrganization, type Output } from '@fi/cli';
import { curateDemoTaxonomy, DEMO_TAXONOMY } from '@fi/feedback';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

const THEMES = `query($apiKey: String!) { feedbackThemes(apiKey: $apiKey, take: 100) { items { id label curated count } } }`;

interface ThemeOut {
  id: string;
  label: string;
  curated: boolean;
  count: number;
}

let stack: Stack;
beforeAll(async () => {
  // Own database: the theme worker visits every organization of its database.
  stack = await startStack({ THEMES_INTERVAL_MS: '200' }, { databases: { feedback: ownDatabaseName('demotaxonomy') } });
});
afterAll(() => stack.close());

const labelsOf = (themes: typeof DEMO_TAXONOMY): string[] =>
  themes.flatMap((theme) => [theme.label, ...labelsOf(theme.children ?? [])]);

test('when the demo organization is seeded as `npm start` does, then its curated themes hold items and suggestions remain to accept', async () => {
  const { key, orgId } = await stack.createKey();
  const [feedback, contacts, accounts] = await Promise.all([
    stack.connect('feedback'),
    stack.connect('contacts'),
    stack.connect('accounts'),
  ]);
  const quiet: Output = { info: () => undefined, result: () => undefined };
  // The demo's seed and taxonomy (cli/src/stack/demo.ts).
  await seedOrganization(
    orgId,
    { feedback: 2_000, contacts: 300, accounts: 60 },
    { feedback, contacts, accounts, identity: feedback, integrations: feedback, close: async () => undefined },
    quiet,
  );
  expect(await curateDemoTaxonomy(feedback, orgId)).toBe(6);

  const curatedLabels = labelsOf(DEMO_TAXONOMY).sort();
  let themes: ThemeOut[] = [];
  await eventually(
    async () => {
      const response = await stack.gql<{ feedbackThemes: { items: ThemeOut[] } }>(THEMES, { apiKey: key });
      themes = response.body.data?.feedbackThemes.items ?? [];
      const curated = themes.filter((theme) => theme.curated);
      return curated.length === curatedLabels.length && themes.some((theme) => !theme.curated);
    },
    120_000,
    'the taxonomy applied and suggestions computed',
  );
  const curated = themes.filter((theme) => theme.curated);
  expect(curated.map((theme) => theme.label).sort()).toEqual(curatedLabels);
  for (const theme of curated) expect(theme.count).toBeGreaterThan(0);
  const suggestions = themes.filter((theme) => !theme.curated);
  expect(suggestions.length).toBeGreaterThanOrEqual(2);
  for (const suggestion of suggestions) expect(suggestion.count).toBeGreaterThan(0);
});
