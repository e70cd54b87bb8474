import { ModelServer, testThemeName, type ModelFault } from './helpers/modelServer';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id } }`;
const CREATE = `mutation($apiKey: String!, $input: FeedbackThemeInput!) { createFeedbackTheme(apiKey: $apiKey, input: $input) { id } }`;
const ITEM_FIELDS = `id themes { id } themeMatches { theme { id } confidence assignedBy }`;
const ITEM = `query($apiKey: String!, $id: String!) { feedbackItem(apiKey: $apiKey, id: $id) { ${ITEM_FIELDS} } }`;
const SUGGESTIONS = `query($apiKey: String!) { feedbackThemes(apiKey: $apiKey, take: 100) { items { id label summary curated count } } }`;
const THEME = `query($apiKey: String!, $id: String!) { feedbackTheme(apiKey: $apiKey, id: $id) { id label } }`;
const UNASSIGN = `mutation($apiKey: String!, $itemId: String!, $themeId: String!) { unassignFeedbackTheme(apiKey: $apiKey, itemId: $itemId, themeId: $themeId) { ${ITEM_FIELDS} } }`;

interface ItemOut {
  id: string;
  themes: Array<{ id: string }>;
  themeMatches: Array<{ theme: { id: string }; confidence: number; assignedBy: string }>;
}

/**
 * A curated theme and an item that restates it without a word in common: the test model server knows
 * that "blick" is "zorp" and "quell" is "frim" (no list of the local method does), as a real embedding
 * model knows synonyms.
 */
const ZORP = { label: 'Zorp frims', description: 'When a zorp frims.', keywords: ['zorp', 'frimming'] };
const RESTATED: [string, string] = ['Blick quells', 'Every blick quells after lunch.'];
const INVOICES = { label: 'Invoices', description: 'Invoice amounts, addresses and receipts.', keywords: ['invoice'] };
const INVOICE_ITEM: [string, string] = ['Bill shows old address', 'Our bill still prints the previous office.'];

let model: ModelServer;
let stack: Stack;
beforeAll(async () => {
  model = await ModelServer.start();
  stack = await startStack(
    {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test-key',
      AI_EMBEDDING_MODEL: 'embed-a',
      AI_CHAT_MODEL: 'chat-a',
      AI_INTERVAL_MS: '100',
      AI_TIMEOUT_MS: '1000',
      THEMES_INTERVAL_MS: '200',
    },
    // Its own database: the theme worker and the model's passes go over every organization of it.
    { databases: { feedback: ownDatabaseName('thememodel') } },
  );
});
afterAll(async () => {
  await stack.close();
  await model.close();
});
beforeEach(() => model.heal());

async function ok<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await stack.gql<T>(query, variables);
  expect(response.body.errors).toBeUndefined();
  return response.body.data!;
}

const add = async (apiKey: string, [title, content]: [string, string]) =>
  (await ok<{ addFeedbackItem: { id: string } }>(ADD, { apiKey, input: { source: 'api', title, content } }))
    .addFeedbackItem.id;

const create = async (apiKey: string, input: Record<string, unknown>) =>
  (await ok<{ createFeedbackTheme: { id: string } }>(CREATE, { apiKey, input })).createFeedbackTheme.id;

const itemOf = async (apiKey: string, id: string) =>
  (await ok<{ feedbackItem: ItemOut }>(ITEM, { apiKey, id })).feedbackItem;

const matchesOf = (item: ItemOut) => item.themeMatches.map((m) => `${m.theme.id}:${m.assignedBy}`);

/** The embeddings requests that held this text. */
const embeddingsOf = (text: string) =>
  model.requestsTo('embeddings').filter((request) => JSON.stringify(request.body.input).includes(text));

test('when an item restates a curated theme in other words, then it gets that theme only once its vector is in, assigned by the model', async () => {
  const { key } = await stack.createKey();
  const zorp = await create(key, ZORP);
  const invoices = await create(key, INVOICES);
  const bill = await add(key, INVOICE_ITEM);
  await eventually(
    async () => matchesOf(await itemOf(key, bill)).includes(`${invoices}:model`),
    30_000,
    'bill by model',
  );
  // The restatement's vector is kept out at first: it is assigned by its terms meanwhile (none share a word).
  model.fail([], { always: { kind: 'server-error' }, about: 'Every blick', to: 'embeddings' });
  const restated = await add(key, RESTATED);
  await eventually(() => embeddingsOf('Every blick').length > 0, 30_000, 'the restatement tried');
  expect((await itemOf(key, restated)).themeMatches).toEqual([]);
  model.heal();
  await eventually(async () => (await itemOf(key, restated)).themeMatches.length > 0, 30_000, 'restatement by model');
  const item = await itemOf(key, restated);
  expect(item.themeMatches).toEqual([{ theme: { id: zorp }, confidence: expect.any(Number), assignedBy: 'model' }]);
  expect(item.themeMatches[0].confidence).toBeGreaterThanOrEqual(0.5);
  expect(item.themes.map((theme) => theme.id)).toEqual([zorp]);
  // What was sent for the theme: its label, description and keywords, nothing else.
  const profiles = model.requestsTo('embeddings').flatMap((request) => request.body.input as string[]);
  expect(profiles).toContain('Zorp frims\nWhen a zorp frims.\nzorp, frimming');
});

test('when a person takes an item from a theme the model gave it, then the correction holds through later computations', async () => {
  const { key } = await stack.createKey();
  const zorp = await create(key, ZORP);
  const restated = await add(key, RESTATED);
  await eventually(
    async () => matchesOf(await itemOf(key, restated)).includes(`${zorp}:model`),
    60_000,
    'assigned by the model',
  );
  await ok(UNASSIGN, { apiKey: key, itemId: restated, themeId: zorp });
  // A later restatement assigned by the model shows computations ran since the correction.
  const later = await add(key, ['Blick quelling', 'The blick quells again today.']);
  await eventually(async () => matchesOf(await itemOf(key, later)).includes(`${zorp}:model`), 30_000, 'later by model');
  expect((await itemOf(key, restated)).themeMatches).toEqual([]);
});

test('when the model fails to embed a taxonomy, then items keep their local themes and get the model ones once it answers', async () => {
  const { key } = await stack.createKey();
  const invoices = await create(key, { ...INVOICES, description: 'Quux invoices, amounts and receipts.' });
  model.fail([], { always: { kind: 'server-error' }, about: 'Quux invoices', to: 'embeddings' });
  const local = await add(key, ['Invoice address wrong', 'The invoice shows our old address.']);
  await eventually(async () => matchesOf(await itemOf(key, local)).length > 0, 30_000, 'local assignment');
  expect((await itemOf(key, local)).themeMatches[0]).toMatchObject({ theme: { id: invoices }, assignedBy: 'keywords' });
  await eventually(() => embeddingsOf('Quux invoices').length > 0, 30_000, 'the profile tried');
  model.heal();
  await eventually(async () => matchesOf(await itemOf(key, local)).includes(`${invoices}:model`), 60_000, 'by model');
});

test("when two organizations have the same theme and texts, then each item gets its own organization's theme only", async () => {
  const one = await stack.createKey();
  const two = await stack.createKey();
  const themeOne = await create(one.key, ZORP);
  const themeTwo = await create(two.key, ZORP);
  const itemOne = await add(one.key, RESTATED);
  const itemTwo = await add(two.key, RESTATED);
  await eventually(async () => matchesOf(await itemOf(one.key, itemOne)).length > 0, 30_000, 'one assigned');
  await eventually(async () => matchesOf(await itemOf(two.key, itemTwo)).length > 0, 30_000, 'two assigned');
  expect(matchesOf(await itemOf(one.key, itemOne))).toEqual([`${themeOne}:model`]);
  expect(matchesOf(await itemOf(two.key, itemTwo))).toEqual([`${themeTwo}:model`]);
  const other = await stack.gql(ITEM, { apiKey: one.key, id: itemTwo });
  expect(other.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
});

interface Suggestion {
  id: string;
  label: string;
  summary: string | null;
  curated: boolean;
  count: number;
}

const suggestionsOf = async (apiKey: string) =>
  (await ok<{ feedbackThemes: { items: Suggestion[] } }>(SUGGESTIONS, { apiKey })).feedbackThemes.items;

/**
 * Four items on one subject that share no word two by two beyond it in other words: the test model server
 * reads "blick" as "zorp" and "quell" as "frim", so only its vectors gather them (the local method needs a
 * word in three items).
 */
const RESTATEMENTS: Array<[string, string]> = [
  ['Zorp frims', 'Every zorp frims after lunch.'],
  ['Blick quells', 'The blick quells twice daily.'],
  ['Blick quelling again', 'Our blick quells at noon.'],
  ['Zorp frimming', 'Each zorp frims at night.'],
];

/** The chat requests that asked for a theme's name about this text. */
const namingsAbout = (text: string) =>
  model
    .requestsTo('chat/completions')
    .filter(
      (request) =>
        (request.body.response_format as { json_schema?: { name?: string } }).json_schema?.name ===
          'feedback_theme_name' && JSON.stringify(request.body.messages).includes(text),
    );

test('when items restate one subject in other words, then the model gathers them into a suggestion that the chat model names', async () => {
  const { key } = await stack.createKey();
  const ids = [];
  for (const text of RESTATEMENTS) ids.push(await add(key, text));
  const name = testThemeName(RESTATEMENTS.map(([title, text]) => `${title}\n\n${text}`).join('\n'));
  let found: Suggestion | undefined;
  await eventually(
    async () => {
      found = (await suggestionsOf(key)).find((theme) => theme.label === name.label);
      return found?.count === RESTATEMENTS.length;
    },
    30_000,
    'a named suggestion of the four items',
  );
  expect(found).toMatchObject({ curated: false, summary: name.summary });
  // What was sent to name it: the items' titles and texts.
  const sent = JSON.stringify(namingsAbout('Every zorp frims')[0].body.messages);
  for (const [title] of RESTATEMENTS) expect(sent).toContain(title);
});

test.each([
  ['429 with Retry-After', { kind: 'rate-limited', retryAfterSeconds: 1 }, 'wibble'],
  ['500', { kind: 'server-error' }, 'wobble'],
  ['a hang', { kind: 'hang' }, 'wubble'],
  ['malformed JSON', { kind: 'malformed' }, 'webble'],
] as Array<[string, ModelFault, string]>)(
  'when the chat model answers %s, then the suggestion keeps its local label and is named once it answers, nothing lost',
  async (_name, fault, word) => {
    const { key } = await stack.createKey();
    model.fail([], { always: fault, about: `${word} export`, to: 'chat/completions' });
    for (const n of [1, 2, 3, 4])
      await add(key, [`The ${word} export fails`, `Our ${word} export fails on sheet ${n}.`]);
    await eventually(
      async () => namingsAbout(`${word} export`).length > 0 && (await suggestionsOf(key)).some((t) => t.count === 4),
      30_000,
      'a naming tried and the four items in a suggestion',
    );
    const local = (await suggestionsOf(key)).find((theme) => theme.count === 4);
    expect(local).toMatchObject({ summary: null });
    expect(local!.label).not.toMatch(/^Model: /);
    model.heal();
    await eventually(
      async () => (await suggestionsOf(key)).some((theme) => theme.label.startsWith('Model: ') && theme.count === 4),
      60_000,
      'named once the model answers',
    );
    const named = (await suggestionsOf(key)).find((theme) => theme.count === 4)!;
    expect(named.id).toBe(local!.id);
    expect(named.summary).toMatch(/^Customers report /);
  },
);

test('when the reply lacks the name, then the local label stays and the theme is not asked about again', async () => {
  const { key } = await stack.createKey();
  model.fail([], { always: { kind: 'no-field' }, about: 'zabble export', to: 'chat/completions' });
  for (const n of [1, 2, 3, 4]) await add(key, [`The zabble export fails`, `Our zabble export fails on sheet ${n}.`]);
  await eventually(() => namingsAbout('zabble export').length > 0, 30_000, 'a naming asked');
  // A later item of the theme has it computed again; the theme is not asked about again.
  await add(key, ['The zabble export fails again', 'Our zabble export fails on sheet 5.']);
  await eventually(async () => (await suggestionsOf(key)).some((theme) => theme.count === 5), 30_000, 'recomputed');
  model.heal();
  const theme = (await suggestionsOf(key)).find((t) => t.count === 5)!;
  expect(theme).toMatchObject({ summary: null });
  expect(theme.label).not.toMatch(/^Model: /);
  expect(namingsAbout('zabble export')).toHaveLength(1);
});

test("when two organizations have the same items, then each has its own named suggestion and cannot read the other's", async () => {
  const one = await stack.createKey();
  const two = await stack.createKey();
  for (const text of RESTATEMENTS) {
    await add(one.key, text);
    await add(two.key, text);
  }
  const named = async (apiKey: string) =>
    (await suggestionsOf(apiKey)).find((theme) => theme.label.startsWith('Model: ') && theme.count === 4);
  await eventually(async () => Boolean((await named(one.key)) && (await named(two.key))), 60_000, 'both named');

  const [themeOne, themeTwo] = [(await named(one.key))!, (await named(two.key))!];
  expect(themeOne.id).not.toBe(themeTwo.id);
  const other = await stack.gql<{ feedbackTheme: unknown }>(THEME, { apiKey: one.key, id: themeTwo.id });
  expect(other.body.data?.feedbackTheme ?? null).toBeNull();
});
