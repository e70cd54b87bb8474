import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id } }`;
const THEME_FIELDS = `id label description keywords curated count parent { id } children { id label }`;
const CREATE = `mutation($apiKey: String!, $input: FeedbackThemeInput!) { createFeedbackTheme(apiKey: $apiKey, input: $input) { ${THEME_FIELDS} } }`;
const UPDATE = `mutation($apiKey: String!, $id: String!, $input: FeedbackThemeInput!) { updateFeedbackTheme(apiKey: $apiKey, id: $id, input: $input) { ${THEME_FIELDS} } }`;
const REMOVE = `mutation($apiKey: String!, $id: String!) { removeFeedbackTheme(apiKey: $apiKey, id: $id) }`;
const ACCEPT = `mutation($apiKey: String!, $id: String!) { acceptFeedbackTheme(apiKey: $apiKey, id: $id) { ${THEME_FIELDS} } }`;
const THEME = `query($apiKey: String!, $id: String!) { feedbackTheme(apiKey: $apiKey, id: $id) { ${THEME_FIELDS} } }`;
const ITEM_FIELDS = `id themes { id curated } themeMatches { theme { id label } confidence assignedBy }`;
const ASSIGN = `mutation($apiKey: String!, $itemId: String!, $themeId: String!) { assignFeedbackTheme(apiKey: $apiKey, itemId: $itemId, themeId: $themeId) { ${ITEM_FIELDS} } }`;
const UNASSIGN = `mutation($apiKey: String!, $itemId: String!, $themeId: String!) { unassignFeedbackTheme(apiKey: $apiKey, itemId: $itemId, themeId: $themeId) { ${ITEM_FIELDS} } }`;
const ITEM = `query($apiKey: String!, $id: String!) { feedbackItem(apiKey: $apiKey, id: $id) { ${ITEM_FIELDS} } }`;
const BY_THEME = `query($apiKey: String!, $theme: String) { feedbackItems(apiKey: $apiKey, theme: $theme, take: 100) { total items { id } } }`;
const SUGGESTIONS = `query($apiKey: String!) { feedbackThemes(apiKey: $apiKey, take: 100) { computedAt items { id label curated count } } }`;

interface ThemeOut {
  id: string;
  label: string;
  description: string | null;
  keywords: string[];
  curated: boolean;
  count: number;
  parent: { id: string } | null;
  children: Array<{ id: string; label: string }>;
}
interface ItemOut {
  id: string;
  themes: Array<{ id: string; curated: boolean }>;
  themeMatches: Array<{ theme: { id: string; label: string }; confidence: number; assignedBy: string }>;
}

const BILLING: Array<[string, string]> = [
  ['Invoice VAT', 'Our invoice lacks the VAT number.'],
  ['Charged twice', 'We were charged twice on the card for one invoice.'],
  ['Invoice address', 'The invoice shows our old billing address.'],
  ['Receipt please', 'I need a receipt for the last invoice for our accountant.'],
];
const DARK: Array<[string, string]> = [
  ['Dark mode', 'Please add a dark mode for late shifts.'],
  ['Dark mode contrast', 'In dark mode the grey text is unreadable.'],
  ['Dark mode resets', 'Dark mode goes back to light after every login.'],
  ['Love dark mode', 'The dark mode looks fantastic on my laptop.'],
];

let stack: Stack;
beforeAll(async () => {
  // Own database: the theme worker visits every organization of its database.
  stack = await startStack({ THEMES_INTERVAL_MS: '200' }, { databases: { feedback: ownDatabaseName('curated') } });
});
afterAll(() => stack.close());

async function ok<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await stack.gql<T>(query, variables);
  expect(response.body.errors).toBeUndefined();
  return response.body.data!;
}

async function codeOf(query: string, variables: Record<string, unknown>) {
  const response = await stack.gql(query, variables);
  return {
    code: response.body.errors?.[0]?.extensions?.code,
    argument: response.body.errors?.[0]?.extensions?.argument,
  };
}

async function add(apiKey: string, [title, content]: [string, string]): Promise<string> {
  return (await ok<{ addFeedbackItem: { id: string } }>(ADD, { apiKey, input: { source: 'api', title, content } }))
    .addFeedbackItem.id;
}

const item = async (apiKey: string, id: string) =>
  (await ok<{ feedbackItem: ItemOut }>(ITEM, { apiKey, id })).feedbackItem;

describe('curated themes', () => {
  let key: string;
  let orgId: string;
  let billing: string[];
  let dark: string[];
  beforeAll(async () => {
    ({ key, orgId } = await stack.createKey());
    billing = [];
    for (const text of BILLING) billing.push(await add(key, text));
    dark = [];
    for (const text of DARK) dark.push(await add(key, text));
  });

  test('when a writer creates a nested theme, then it reads back with its parent and the parent lists it', async () => {
    const parent = (await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, { apiKey: key, input: { label: ' Money ' } }))
      .createFeedbackTheme;
    expect(parent).toMatchObject({ label: 'Money', curated: true, parent: null, children: [], description: null });
    const child = (
      await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, {
        apiKey: key,
        input: { label: 'Invoices', description: 'Invoices and receipts.', keywords: ['invoice'], parentId: parent.id },
      })
    ).createFeedbackTheme;
    expect(child).toMatchObject({ curated: true, parent: { id: parent.id }, keywords: ['invoice'] });
    const read = (await ok<{ feedbackTheme: ThemeOut }>(THEME, { apiKey: key, id: parent.id })).feedbackTheme;
    expect(read.children).toEqual([{ id: child.id, label: 'Invoices' }]);
    const grandchild = (
      await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, { apiKey: key, input: { label: 'VAT', parentId: child.id } })
    ).createFeedbackTheme;
    expect(await codeOf(CREATE, { apiKey: key, input: { label: 'Too deep', parentId: grandchild.id } })).toEqual({
      code: 'BAD_REQUEST',
      argument: 'input.parentId',
    });
    expect(await codeOf(UPDATE, { apiKey: key, id: parent.id, input: { label: 'Money', parentId: child.id } })).toEqual(
      {
        code: 'BAD_REQUEST',
        argument: 'input.parentId',
      },
    );
    expect(await codeOf(CREATE, { apiKey: key, input: { label: '' } })).toEqual({
      code: 'BAD_REQUEST',
      argument: 'input.label',
    });
    expect(
      await codeOf(CREATE, { apiKey: key, input: { label: 'X', exampleIds: ['0123456789abcdef01234567'] } }),
    ).toEqual({
      code: 'BAD_REQUEST',
      argument: 'input.exampleIds',
    });
    expect(
      (await ok<{ removeFeedbackTheme: boolean }>(REMOVE, { apiKey: key, id: child.id })).removeFeedbackTheme,
    ).toBe(true);
    const moved = (await ok<{ feedbackTheme: ThemeOut }>(THEME, { apiKey: key, id: grandchild.id })).feedbackTheme;
    expect(moved.parent).toEqual({ id: parent.id });
    expect(
      (await ok<{ feedbackTheme: ThemeOut | null }>(THEME, { apiKey: key, id: child.id })).feedbackTheme,
    ).toBeNull();
  });

  test('when a theme is updated without exampleIds, then its examples are kept; with a list, they are replaced', async () => {
    // The API does not list a theme's example ids: they are read where the service keeps them.
    const themes = (await stack.connect('feedback')).collection<{ _id: string; exampleIds?: string[] }>(
      'feedback_themes',
    );
    const examplesOf = async (id: string) => (await themes.findOne({ _id: id }))?.exampleIds;
    const { id } = (
      await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, {
        apiKey: key,
        input: { label: 'Invoices kept', exampleIds: billing.slice(0, 2) },
      })
    ).createFeedbackTheme;
    expect(await examplesOf(id)).toEqual(billing.slice(0, 2));
    const update = async (input: Record<string, unknown>) =>
      (await ok<{ updateFeedbackTheme: ThemeOut }>(UPDATE, { apiKey: key, id, input })).updateFeedbackTheme;
    expect(await update({ label: 'Invoices', description: 'Invoices and receipts.' })).toMatchObject({
      label: 'Invoices',
      description: 'Invoices and receipts.',
    });
    expect(await examplesOf(id)).toEqual(billing.slice(0, 2));
    await update({ label: 'Invoices', exampleIds: null });
    expect(await examplesOf(id)).toEqual(billing.slice(0, 2));
    await update({ label: 'Invoices', exampleIds: [billing[3]] });
    expect(await examplesOf(id)).toEqual([billing[3]]);
    await update({ label: 'Invoices', exampleIds: [] });
    expect(await examplesOf(id)).toEqual([]);
    // The checks of given examples hold in an update too.
    expect(
      await codeOf(UPDATE, { apiKey: key, id, input: { label: 'Invoices', exampleIds: [dark[0], 'nope'] } }),
    ).toEqual({ code: 'BAD_REQUEST', argument: 'input.exampleIds' });
    expect(await examplesOf(id)).toEqual([]);
    await ok(REMOVE, { apiKey: key, id });
  });

  test('when two themes are moved under each other by simultaneous requests, then one is refused and no cycle is stored', async () => {
    const create = async (label: string) =>
      (await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, { apiKey: key, input: { label } })).createFeedbackTheme;
    const [a, b] = [await create('Cycle A'), await create('Cycle B')];
    const answers = await Promise.all([
      stack.gql(UPDATE, { apiKey: key, id: a.id, input: { label: 'Cycle A', parentId: b.id } }),
      stack.gql(UPDATE, { apiKey: key, id: b.id, input: { label: 'Cycle B', parentId: a.id } }),
    ]);
    const codes = answers.map((answer) => answer.body.errors?.[0]?.extensions?.code ?? 'OK').sort();
    expect(codes).toEqual(['BAD_REQUEST', 'OK']);
    const read = async (id: string) =>
      (await ok<{ feedbackTheme: ThemeOut }>(THEME, { apiKey: key, id })).feedbackTheme;
    const parents = [(await read(a.id)).parent, (await read(b.id)).parent];
    expect(parents.filter((parent) => parent !== null)).toHaveLength(1);
  });

  test('when a read-only key or another organization tries, then FORBIDDEN or NOT_FOUND and nothing changes', async () => {
    const theme = (await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, { apiKey: key, input: { label: 'Guarded' } }))
      .createFeedbackTheme;
    const reader = await stack.createKey({ orgId, readOnly: true });
    const other = await stack.createKey();
    const attempts: Array<[string, Record<string, unknown>]> = [
      [CREATE, { input: { label: 'Nope' } }],
      [UPDATE, { id: theme.id, input: { label: 'Nope' } }],
      [REMOVE, { id: theme.id }],
      [ACCEPT, { id: theme.id }],
      [ASSIGN, { itemId: billing[0], themeId: theme.id }],
      [UNASSIGN, { itemId: billing[0], themeId: theme.id }],
    ];
    for (const [query, variables] of attempts) {
      expect((await codeOf(query, { apiKey: reader.key, ...variables })).code).toBe('FORBIDDEN');
      if (query !== CREATE) expect((await codeOf(query, { apiKey: other.key, ...variables })).code).toBe('NOT_FOUND');
    }
    expect(
      (await ok<{ feedbackTheme: ThemeOut | null }>(THEME, { apiKey: other.key, id: theme.id })).feedbackTheme,
    ).toBeNull();
    expect(
      (await ok<{ feedbackTheme: ThemeOut }>(THEME, { apiKey: reader.key, id: theme.id })).feedbackTheme.label,
    ).toBe('Guarded');
    expect((await item(key, billing[0])).themeMatches.map((m) => m.theme.id)).not.toContain(theme.id);
  });

  test('when a theme has examples, then the items like them get it within the worker’s pass, and the filter and count follow', async () => {
    const { key: own } = await stack.createKey();
    const bills: string[] = [];
    for (const text of BILLING) bills.push(await add(own, text));
    const darks: string[] = [];
    for (const text of DARK) darks.push(await add(own, text));
    const theme = (
      await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, {
        apiKey: own,
        input: { label: 'Billing', description: 'Invoices, charges and receipts.', exampleIds: bills.slice(0, 3) },
      })
    ).createFeedbackTheme;
    await eventually(
      async () => (await item(own, bills[3])).themeMatches[0]?.theme.id === theme.id,
      60_000,
      'a billing item assigned to the curated theme',
    );
    const matched = await item(own, bills[3]);
    expect(matched.themes[0]).toEqual({ id: theme.id, curated: true });
    expect(['examples', 'keywords']).toContain(matched.themeMatches[0].assignedBy);
    for (const id of darks) expect((await item(own, id)).themeMatches).toEqual([]);
    const listed = await ok<{ feedbackItems: { total: number; items: Array<{ id: string }> } }>(BY_THEME, {
      apiKey: own,
      theme: theme.id,
    });
    expect(listed.feedbackItems.items.map((i) => i.id).sort()).toEqual([...bills].sort());
    await eventually(
      async () =>
        (await ok<{ feedbackTheme: ThemeOut }>(THEME, { apiKey: own, id: theme.id })).feedbackTheme.count ===
        bills.length,
      60_000,
      'the theme count to follow its items',
    );
  });

  test('when a person assigns and unassigns, then it holds at once and through later computations', async () => {
    const theme = (
      await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, {
        apiKey: key,
        input: { label: 'Night reading', keywords: ['dark mode'] },
      })
    ).createFeedbackTheme;
    const assigned = (
      await ok<{ assignFeedbackTheme: ItemOut }>(ASSIGN, { apiKey: key, itemId: billing[3], themeId: theme.id })
    ).assignFeedbackTheme;
    expect(assigned.themeMatches[0]).toEqual({
      theme: { id: theme.id, label: 'Night reading' },
      confidence: 1,
      assignedBy: 'person',
    });
    expect(assigned.themes[0].id).toBe(theme.id);
    const taken = (
      await ok<{ unassignFeedbackTheme: ItemOut }>(UNASSIGN, { apiKey: key, itemId: dark[0], themeId: theme.id })
    ).unassignFeedbackTheme;
    expect(taken.themeMatches.map((m) => m.theme.id)).not.toContain(theme.id);
    // Every later computation keeps both: wait for one that started after them.
    const before = (await ok<{ feedbackThemes: { computedAt: string } }>(SUGGESTIONS, { apiKey: key })).feedbackThemes
      .computedAt;
    await add(key, ['Dark mode on mobile', 'Is dark mode coming to the phone app?']);
    await eventually(
      async () =>
        (await ok<{ feedbackThemes: { computedAt: string } }>(SUGGESTIONS, { apiKey: key })).feedbackThemes
          .computedAt !== before,
      120_000,
      'a computation after the corrections',
    );
    expect((await item(key, billing[3])).themeMatches[0]).toMatchObject({
      theme: { id: theme.id },
      assignedBy: 'person',
    });
    expect((await item(key, dark[0])).themeMatches.map((m) => m.theme.id)).not.toContain(theme.id);
  });

  test('when an item has a child theme, then its parent’s filter and count include it', async () => {
    const { key: own } = await stack.createKey();
    const id = await add(own, ['Walrus jam', 'The walrus printer jams on every second page.']);
    const create = async (input: Record<string, unknown>) =>
      (await ok<{ createFeedbackTheme: ThemeOut }>(CREATE, { apiKey: own, input })).createFeedbackTheme;
    const parent = await create({ label: 'Hardware' });
    const child = await create({ label: 'Printers', parentId: parent.id });
    const assigned = (
      await ok<{ assignFeedbackTheme: ItemOut }>(ASSIGN, { apiKey: own, itemId: id, themeId: child.id })
    ).assignFeedbackTheme;
    expect(assigned.themes.slice(0, 2).map((theme) => theme.id)).toEqual([child.id, parent.id]);
    expect(assigned.themeMatches.map((match) => match.theme.id)).toEqual([child.id]);
    const listed = await ok<{ feedbackItems: { items: Array<{ id: string }> } }>(BY_THEME, {
      apiKey: own,
      theme: parent.id,
    });
    expect(listed.feedbackItems.items.map((item) => item.id)).toEqual([id]);
    await eventually(
      async () =>
        (await ok<{ feedbackTheme: ThemeOut }>(THEME, { apiKey: own, id: parent.id })).feedbackTheme.count === 1,
      60_000,
      'the parent’s count to include its child’s item',
    );
  });

  test('when a suggestion is accepted, then it keeps its id, becomes curated and its items keep it', async () => {
    const { key: fresh } = await stack.createKey();
    const ids: string[] = [];
    for (const text of DARK) ids.push(await add(fresh, text));
    let suggestion: ThemeOut | undefined;
    await eventually(
      async () => {
        const list = await ok<{ feedbackThemes: { items: ThemeOut[] } }>(SUGGESTIONS, { apiKey: fresh });
        suggestion = list.feedbackThemes.items.find((theme) => !theme.curated && theme.count >= 3);
        return suggestion !== undefined;
      },
      60_000,
      'a suggested theme',
    );
    const found: ThemeOut = suggestion!;
    const accepted = (await ok<{ acceptFeedbackTheme: ThemeOut }>(ACCEPT, { apiKey: fresh, id: found.id }))
      .acceptFeedbackTheme;
    expect(accepted).toMatchObject({ id: found.id, label: found.label, curated: true });
    await eventually(
      async () => (await item(fresh, ids[0])).themeMatches[0]?.theme.id === found.id,
      60_000,
      'the accepted theme assigned as curated',
    );
    const list = (await ok<{ feedbackThemes: { items: ThemeOut[] } }>(SUGGESTIONS, { apiKey: fresh })).feedbackThemes
      .items;
    expect(list.filter((theme) => theme.id === found.id)).toEqual([expect.objectContaining({ curated: true })]);
    // The computation no longer proposes a suggestion repeating it.
    expect(list.filter((theme) => !theme.curated && theme.label === found.label)).toEqual([]);
  });
});
