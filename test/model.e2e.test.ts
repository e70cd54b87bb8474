import { ModelServer } from './helpers/modelServer';
import { eventually } from './helpers/processes';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id sentiment sentimentSource } }`;
const SIMILAR = `query($apiKey: String!, $id: String!, $take: Int) { feedbackItem(apiKey: $apiKey, id: $id) { id similar(take: $take) { score item { id } } } }`;
const THEMES = `query($apiKey: String!) { feedbackThemes(apiKey: $apiKey) { computedAt items { id } } }`;

interface Added {
  id: string;
  sentiment: string | null;
  sentimentSource: string;
}

const TEXTS: Array<[string, string]> = [
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
    const similar = await stack.gql(SIMILAR, { apiKey: key, id: added[0].id, take: 3 });
    expect(similar.body.errors).toBeUndefined();
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
