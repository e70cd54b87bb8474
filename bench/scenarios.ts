import { FEEDBACK_FIELDS } from '../test/helpers/queries';

/** What the benchmark asks for; ids come from the seeded data. */
export interface ScenarioInputs {
  apiKey: string;
  feedbackId: string;
  contactId: string;
  accountId: string;
  search: string;
}

export type SubgraphName = 'feedback' | 'contacts' | 'accounts';

export interface Scenario {
  id: string;
  title: string;
  /** The subgraph that answers it alone, so it can be called directly; null when it spans several. */
  subgraph: SubgraphName | null;
  /** Writes: every request creates a record. */
  mutation: boolean;
  body(inputs: ScenarioInputs): { query: string; variables: Record<string, unknown> };
}

const ACCOUNT_FIELDS = 'id name domain description website score churnRisk tags createdAt';

export const SCENARIOS: Scenario[] = [
  {
    id: 's1',
    title: 'feedbackItems(take: 50, status, sentiment), every field and total',
    subgraph: 'feedback',
    mutation: false,
    body: ({ apiKey }) => ({
      query: `query S1($k: String!) { feedbackItems(apiKey: $k, take: 50, status: "unread", sentiment: "negative") { total items { ${FEEDBACK_FIELDS} } } }`,
      variables: { k: apiKey },
    }),
  },
  {
    id: 's2',
    title: 'contactItems(search, take: 20) with totalFeedbacks and lastInteraction (contacts + feedback)',
    subgraph: null,
    mutation: false,
    body: ({ apiKey, search }) => ({
      query: `query S2($k: String!, $s: String) { contactItems(apiKey: $k, search: $s, take: 20) { total items { id name email company totalFeedbacks lastInteraction } } }`,
      variables: { k: apiKey, s: search },
    }),
  },
  {
    id: 's3',
    title: 'accountItem(id), every field',
    subgraph: 'accounts',
    mutation: false,
    body: ({ apiKey, accountId }) => ({
      query: `query S3($k: String!, $id: String!) { accountItem(apiKey: $k, id: $id) { ${ACCOUNT_FIELDS} } }`,
      variables: { k: apiKey, id: accountId },
    }),
  },
  {
    id: 's4',
    title: 'addFeedbackItem',
    subgraph: 'feedback',
    mutation: true,
    body: ({ apiKey }) => ({
      query: 'mutation S4($k: String!, $in: NewFeedbackInput!) { addFeedbackItem(apiKey: $k, input: $in) { id status createdAt } }',
      variables: {
        k: apiKey,
        in: { source: 'api', title: 'Export is slow', content: 'Exporting 10k rows takes minutes', email: 'bench@example.com', sentiment: 'negative', metadata: { plan: 'pro' } },
      },
    }),
  },
  {
    id: 's5',
    title: 'feedbackItem + contactItem + accountItem by id (all three subgraphs)',
    subgraph: null,
    mutation: false,
    body: ({ apiKey, feedbackId, contactId, accountId }) => ({
      query: `query S5($k: String!, $f: String!, $c: String!, $a: String!) {
        feedbackItem(apiKey: $k, id: $f) { id title sentiment status createdAt }
        contactItem(apiKey: $k, id: $c) { id name email company }
        accountItem(apiKey: $k, id: $a) { id name score churnRisk }
      }`,
      variables: { k: apiKey, f: feedbackId, c: contactId, a: accountId },
    }),
  },
];
