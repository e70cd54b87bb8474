import { Registry } from 'prom-client';
import { AiStore, FeedbackRepository, loadFeedbackConfig, monthlyTokens, startModelFeature } from '@fi/feedback';
import { createLogger } from '@fi/shared';
import { connectMongo, type Connection } from '@fi/shared/database';
import { ModelServer, testSentiment, testVector } from './helpers/modelServer';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id sentiment sentimentSource } }`;
const SIMILAR = `query($apiKey: String!, $id: String!, $take: Int) { feedbackItem(apiKey: $apiKey, id: $id) { id similar(take: $take) { score item { id } } } }`;
const GET = `query($apiKey: String!, $id: String!) { feedbackItem(apiKey: $apiKey, id: $id) { id sentiment sentimentSource } }`;
const THEMES = `query($apiKey: String!) { feedbackThemes(apiKey: $apiKey) { computedAt items { id } } }`;

interface Added {
  id: string;
  sentiment: string | null;
  sentimentSource: string;
}

/**
 * Two restatements without a word in common (in the words of a product no list of ours knows): only a
 * model that knows the words mean alike relates them, as the test model server does.
 */
const INVOICE: [string, string] = ['Zorp frims', 'Every zorp frims after lunch.'];
const BILL: [string, string] = ['Blick quells', 'The blick quells twice daily.'];

const TEXTS: Array<[string, string]> = [
  INVOICE,
  BILL,
  ['Invoice address wrong', 'The invoice shows our old address and the accountant rejects it.'],
  ['Bill shows old address', 'Our bill still prints the previous office, please fix the billing address.'],
  ['App crashes on reports', 'The iPhone app crashes every time I open a report with charts.'],
  ['Mobile freezes', 'On my phone the reports screen freezes and I have to restart.'],
  ['Love the new editor', 'The new editor is great, thanks for the shortcuts.'],
  ['Export columns', 'Can the CSV export include the custom fields we added?'],
];

/** Every request the services of this process send to a model's paths, whatever the server. */
const modelCalls: string[] = [];
const realFetch = globalThis.fetch;
beforeAll(() => {
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (/\/(embeddings|chat\/completions)$/.test(url)) modelCalls.push(url);
    return realFetch(input, init);
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

async function addAll(stack: Stack, apiKey: string, texts = TEXTS): Promise<Added[]> {
  const added: Added[] = [];
  for (const [title, content] of texts) {
    const response = await stack.gql<{ addFeedbackItem: Added }>(ADD, {
      apiKey,
      input: { source: 'api', title, content },
    });
    expect(response.body.errors).toBeUndefined();
    added.push(response.body.data!.addFeedbackItem);
  }
  return added;
}

describe('without a model (OPENAI_BASE_URL unset)', () => {
  let model: ModelServer;
  let stack: Stack;
  beforeAll(async () => {
    model = await ModelServer.start();
    // Every background job runs often, so any of them that called a model would do so within the test.
    stack = await startStack(
      { THEMES_INTERVAL_MS: '200', AI_INTERVAL_MS: '100' },
      { databases: { feedback: ownDatabaseName('nomodel') } },
    );
  });
  afterAll(async () => {
    await stack.close();
    await model.close();
  });

  test('when items are added, similar is read and themes are computed, then no request leaves for a model', async () => {
    const { key } = await stack.createKey();
    const added = await addAll(stack, key);
    expect(added.every((item) => item.sentimentSource !== 'model')).toBe(true);
    const similar = await stack.gql<{ feedbackItem: { similar: Array<{ item: { id: string } }> } }>(SIMILAR, {
      apiKey: key,
      id: added[0].id,
      take: 3,
    });
    expect(similar.body.errors).toBeUndefined();
    // The local method does not relate the restatement that shares no word (the model does, below).
    expect(similar.body.data!.feedbackItem.similar.map(({ item }) => item.id)).not.toContain(added[1].id);
    await eventually(
      async () => {
        const themes = await stack.gql<{ feedbackThemes: { computedAt: string | null } }>(THEMES, { apiKey: key });
        return Boolean(themes.body.data?.feedbackThemes.computedAt);
      },
      60_000,
      'themes computed',
    );
    expect(model.requests).toEqual([]);
    expect(modelCalls).toEqual([]);
  });
});

const MODEL_ENV = (model: ModelServer) => ({
  OPENAI_BASE_URL: model.url,
  OPENAI_API_KEY: 'test-key',
  AI_EMBEDDING_MODEL: 'embed-a',
  AI_CHAT_MODEL: 'chat-a',
  AI_INTERVAL_MS: '100',
  AI_TIMEOUT_MS: '1000',
});

const cosineOf = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

/** The chat requests that asked about this title. */
const chatsAbout = (model: ModelServer, title: string) =>
  model.requestsTo('chat/completions').filter((request) => JSON.stringify(request.body.messages).includes(title));

describe('with a model (the test model server)', () => {
  let model: ModelServer;
  let stack: Stack;
  beforeAll(async () => {
    model = await ModelServer.start();
    // Its own database: the model's passes go over every item of it.
    stack = await startStack(MODEL_ENV(model), { databases: { feedback: ownDatabaseName('model') } });
  });
  afterAll(async () => {
    await stack.close();
    await model.close();
  });
  beforeEach(() => model.heal());

  async function itemOf(apiKey: string, id: string): Promise<Added> {
    const response = await stack.gql<{ feedbackItem: Added }>(GET, { apiKey, id });
    expect(response.body.errors).toBeUndefined();
    return response.body.data!.feedbackItem;
  }

  test('when items are embedded, then similar relates restatements by their vectors, title and text only sent', async () => {
    const { key } = await stack.createKey();
    const added = await addAll(stack, key);
    let found: Array<{ score: number; item: { id: string } }> = [];
    await eventually(
      async () => {
        const response = await stack.gql<{ feedbackItem: { similar: typeof found } }>(SIMILAR, {
          apiKey: key,
          id: added[0].id,
          take: 3,
        });
        found = response.body.data?.feedbackItem.similar ?? [];
        return found[0]?.item.id === added[1].id;
      },
      30_000,
      'the restatement found by its vector',
    );
    const expected = cosineOf(testVector(`${INVOICE[0]}\n\n${INVOICE[1]}`), testVector(`${BILL[0]}\n\n${BILL[1]}`));
    expect(found[0].score).toBeCloseTo(expected, 2);
    const sent = model.requestsTo('embeddings').flatMap((request) => request.body.input as string[]);
    expect(sent).toContain(`${INVOICE[0]}\n\n${INVOICE[1]}`);
    expect(model.requests.every((request) => request.authorization === 'Bearer test-key')).toBe(true);
    expect(modelCalls.length).toBeGreaterThan(0);
  });

  test("when the chat model reads an item, then its sentiment is the model's; a sentiment given in the input is never replaced", async () => {
    const { key } = await stack.createKey();
    const [given] = await addAll(stack, key, [
      ['Given sentiment', 'Everything is broken and slow, the worst release.'],
    ]);
    const response = await stack.gql<{ addFeedbackItem: Added }>(ADD, {
      apiKey: key,
      input: { source: 'api', title: 'Provided one', content: 'It fails and it is broken.', sentiment: 'positive' },
    });
    const provided = response.body.data!.addFeedbackItem;
    expect(provided.sentimentSource).toBe('provided');
    await eventually(async () => (await itemOf(key, given.id)).sentimentSource === 'model', 30_000, 'model sentiment');
    expect(await itemOf(key, given.id)).toMatchObject({ sentiment: 'negative', sentimentSource: 'model' });
    // A later item read by the model shows the pass went past the provided one without asking about it.
    const [later] = await addAll(stack, key, [['Later one', 'We love the new charts, thanks.']]);
    await eventually(async () => (await itemOf(key, later.id)).sentimentSource === 'model', 30_000, 'later read');
    expect(await itemOf(key, provided.id)).toMatchObject({ sentiment: 'positive', sentimentSource: 'provided' });
    expect(chatsAbout(model, 'Provided one')).toEqual([]);
    const chat = chatsAbout(model, 'Given sentiment')[0].body;
    expect(chat).toMatchObject({ model: 'chat-a', response_format: { type: 'json_schema' } });
  });

  test("when a person gives an item its sentiment, then the model's reading never replaces it", async () => {
    const { key } = await stack.createKey();
    const [item] = await addAll(stack, key, [['Person decides', 'Everything is broken and slow, the worst release.']]);
    const given = await stack.gql<{ updateFeedbackItemSentiment: Added }>(
      `mutation($apiKey: String!, $id: String!) { updateFeedbackItemSentiment(apiKey: $apiKey, id: $id, sentiment: "positive") { id sentiment sentimentSource } }`,
      { apiKey: key, id: item.id },
    );
    expect(given.body.data!.updateFeedbackItemSentiment).toMatchObject({
      sentiment: 'positive',
      sentimentSource: 'person',
    });
    // A later item read by the model shows a pass has gone over the organization since.
    const [later] = await addAll(stack, key, [['Later read', 'It crashes and I hate it.']]);
    await eventually(async () => (await itemOf(key, later.id)).sentimentSource === 'model', 30_000, 'later read');
    expect(await itemOf(key, item.id)).toMatchObject({ sentiment: 'positive', sentimentSource: 'person' });
  });

  test.each([
    ['429 with Retry-After', { kind: 'rate-limited', retryAfterSeconds: 1 }],
    ['500', { kind: 'server-error' }],
    ['a hang', { kind: 'hang' }],
    ['malformed JSON', { kind: 'malformed' }],
  ] as const)(
    'when the server answers %s, then the item keeps its local sentiment and is read again later, nothing lost',
    async (_name, fault) => {
      const { key } = await stack.createKey();
      const title = `Fault ${fault.kind}`;
      model.fail([], { always: fault, about: title });
      const [item] = await addAll(stack, key, [[title, 'The upload is broken since Monday.']]);
      await eventually(() => chatsAbout(model, title).length > 0, 30_000, 'a first try');
      expect((await itemOf(key, item.id)).sentimentSource).not.toBe('model');
      model.heal();
      await eventually(async () => (await itemOf(key, item.id)).sentimentSource === 'model', 60_000, 'read again');
      expect(await itemOf(key, item.id)).toMatchObject({ sentiment: testSentiment('broken') });
      if (fault.kind === 'rate-limited') {
        // Retry-After is honoured: each try of the item came at least the second it asked for after the one before.
        const tries = chatsAbout(model, title).map((request) => request.at);
        expect(tries.length).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < tries.length; i += 1) expect(tries[i] - tries[i - 1]).toBeGreaterThanOrEqual(950);
      }
    },
  );

  test('when the model has been called, then the worker counts calls, tokens, failures and latency per model', async () => {
    await eventually(() => model.requestsTo('chat/completions').length > 0, 30_000, 'a chat call');
    const metrics = await (await fetch(`${stack.worker!.url}/metrics`)).text();
    for (const [name, labels] of [
      ['fi_ai_calls_total', 'model="embed-a",operation="embeddings",outcome="ok"'],
      ['fi_ai_calls_total', 'model="chat-a",operation="chat",outcome="ok"'],
      ['fi_ai_tokens_total', 'model="embed-a",kind="prompt"'],
      ['fi_ai_call_duration_seconds_count', 'model="chat-a",operation="chat"'],
    ])
      expect(metrics).toMatch(new RegExp(`^${name}\\{[^}]*${labels}[^}]*\\} [1-9]`, 'm'));
    // The fault tests above failed some tries.
    expect(metrics).toMatch(/^fi_ai_failures_total\{[^}]*model="chat-a"[^}]*\} [1-9]/m);
  });

  test('when the reply lacks the sentiment field, then the local result stays and the item is not asked about again', async () => {
    const { key } = await stack.createKey();
    model.fail([{ kind: 'no-field' }], { about: 'No field', to: 'chat/completions' });
    const [item] = await addAll(stack, key, [['No field', 'The upload is broken since Monday.']]);
    const local = item.sentimentSource;
    const [later] = await addAll(stack, key, [['After no field', 'Great work on the charts, thanks.']]);
    await eventually(async () => (await itemOf(key, later.id)).sentimentSource === 'model', 30_000, 'later read');
    expect((await itemOf(key, item.id)).sentimentSource).toBe(local);
    expect(chatsAbout(model, 'No field')).toHaveLength(1);
  });
});

/** Items of one organization in a database of their own, written as the core stores them, for the model's passes alone. */
async function ownItems(prefix: string) {
  const connection = await connectMongo(process.env.MONGODB_URI!, ownDatabaseName(prefix), { maxTimeMs: 25_000 });
  const orgId = `org-${prefix}`;
  const now = new Date();
  const { insertedIds } = await connection.collection('feedback_items').insertMany(
    TEXTS.map(([title, content]) => ({
      orgId,
      source: 'api',
      title,
      content,
      status: 'unread',
      sentiment: 'neutral',
      sentimentSource: 'provided',
      publishedDate: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
  return { connection, orgId, ids: Object.values(insertedIds).map((id) => id.toHexString()) };
}

/** The model's background work alone (as the worker starts it), with an embedding model only. */
function startEmbedding(connection: Connection, model: ModelServer, env: Record<string, string>) {
  return startModelFeature(
    connection,
    loadFeedbackConfig({
      MONGODB_URI: process.env.MONGODB_URI,
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
      IDENTITY_SIGNING_KEYS: process.env.IDENTITY_SIGNING_KEYS,
      ...MODEL_ENV(model),
      AI_CHAT_MODEL: '',
      ...env,
    }),
    new Registry(),
    // No chat model: no sentiment is written.
    { items: new FeedbackRepository(connection), events: undefined as never },
    createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
  );
}

const embeddedWith = (model: ModelServer, name: string) =>
  new Set(
    model
      .requestsTo('embeddings')
      .filter((request) => request.body.model === name)
      .flatMap((request) => request.body.input as string[]),
  );

describe('a new embedding model', () => {
  test('when AI_EMBEDDING_MODEL changes, then every item is embedded again under the new model', async () => {
    const model = await ModelServer.start();
    const { connection, orgId, ids } = await ownItems('reembed');
    try {
      const first = await startEmbedding(connection, model, {
        AI_EMBEDDING_MODEL: 'embed-a',
        AI_ITEMS_PER_MINUTE: '1200',
      });
      await eventually(() => embeddedWith(model, 'embed-a').size === TEXTS.length, 30_000, 'embedded by embed-a');
      await first.close();
      const second = await startEmbedding(connection, model, {
        AI_EMBEDDING_MODEL: 'embed-b',
        AI_ITEMS_PER_MINUTE: '1200',
      });
      await eventually(() => embeddedWith(model, 'embed-b').size === TEXTS.length, 30_000, 'embedded again by embed-b');
      await eventually(async () => (await second.vectors.of(orgId, ids)).size === ids.length, 30_000, 'stored');
      expect(second.vectors.model).toBe('embed-b');
      // At most AI_ITEMS_PER_MINUTE * AI_INTERVAL_MS / 60 s = 2 items of the organization per pass.
      expect(model.requestsTo('embeddings').every((request) => (request.body.input as string[]).length <= 2)).toBe(
        true,
      );
      await second.close();
    } finally {
      await connection.close();
      await model.close();
    }
  });
});

describe('the monthly token budget', () => {
  test('when 40 calls reserve tokens at once, then exactly the budget is taken', async () => {
    const connection = await connectMongo(process.env.MONGODB_URI!, ownDatabaseName('budget'), { maxTimeMs: 25_000 });
    try {
      const store = new AiStore(connection);
      const budget = monthlyTokens(store, 100);
      const taken = await Promise.all(Array.from({ length: 40 }, () => budget.reserve('org-budget', 10)));
      expect(taken.filter(Boolean)).toHaveLength(10);
      expect(await store.tokensUsed('org-budget', new Date().toISOString().slice(0, 7))).toBe(100);
    } finally {
      await connection.close();
    }
  });

  test('when the budget is spent, then nothing is sent and the items wait; with a budget again they are embedded, none lost', async () => {
    const model = await ModelServer.start();
    const { connection, orgId, ids } = await ownItems('spent');
    try {
      const spent = await startEmbedding(connection, model, { AI_EMBEDDING_MODEL: 'embed-a', AI_MONTHLY_TOKENS: '3' });
      const waiting = () => connection.collection('ai_pending').countDocuments({ orgId });
      await eventually(async () => (await waiting()) === TEXTS.length, 30_000, 'every item waiting');
      expect(model.requests).toEqual([]);
      await spent.close();
      const funded = await startEmbedding(connection, model, { AI_EMBEDDING_MODEL: 'embed-a', AI_MONTHLY_TOKENS: '0' });
      await eventually(async () => (await funded.vectors.of(orgId, ids)).size === ids.length, 30_000, 'all embedded');
      await eventually(async () => (await waiting()) === 0, 30_000, 'none waiting');
      await funded.close();
    } finally {
      await connection.close();
      await model.close();
    }
  });
});
