import { FEEDBACK_FIELDS } from '../test/helpers/queries';
import { COMPANY_STEMS, TOPICS } from '@fi/cli';

/** What the benchmark draws its requests from: records and keys of the seeded organization. */
export interface ScenarioInputs {
  /** Several keys of the organization, rotated request by request. */
  apiKeys: string[];
  feedbackIds: string[];
  contactIds: string[];
  accountIds: string[];
}

export type SubgraphName = 'feedback' | 'contacts' | 'accounts';

export interface RequestBody {
  query: string;
  variables: Record<string, unknown>;
}

export interface Scenario {
  id: string;
  title: string;
  /** The subgraph that answers it alone, so it can be called directly; null when it spans several. */
  subgraph: SubgraphName | null;
  /** Writes: every request creates a record. */
  mutation: boolean;
  /**
   * The n-th request of a run. Requests differ in ids, pages, filters and keys, as a real client's do,
   * so no gateway can answer one from another's execution.
   */
  body(inputs: ScenarioInputs, n: number): RequestBody;
  /** Also run with the first request repeated: identical concurrent queries, which gateways share. */
  identicalRow?: boolean;
  /** Run with one connection only (subgraph and our gateway): a latency comparison, not a load test. */
  unloadedOnly?: boolean;
}

const ACCOUNT_FIELDS = 'id name domain description website score churnRisk tags createdAt';
const STATUSES = ['unread', 'read', 'archived'];
const SENTIMENTS = ['negative', 'neutral', 'positive'];

/** Deterministic spread over a list, so every target of a run gets the same sequence of requests. */
const pick = <T>(list: readonly T[], n: number, stride = 1): T => list[(n * stride) % list.length];
const keyOf = (inputs: ScenarioInputs, n: number) => pick(inputs.apiKeys, n);

/** About `length` characters of ordinary feedback prose, different for every n. */
export function feedbackText(n: number, length: number): string {
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i += 1) {
    const sentence = `${pick(TOPICS, n + i, 7)} ${i % 3 === 0 ? 'keeps failing for' : i % 3 === 1 ? 'works well for' : 'was changed for'} ${pick(COMPANY_STEMS, n * 3 + i)} users in run ${n}.`;
    words.push(sentence);
    size += sentence.length + 1;
  }
  return words.join(' ').slice(0, length);
}

function addFeedback(
  inputs: ScenarioInputs,
  n: number,
  textLength: number,
  sentiment: string | undefined,
): RequestBody {
  return {
    query:
      'mutation S4($k: String!, $in: NewFeedbackInput!) { addFeedbackItem(apiKey: $k, input: $in) { id status createdAt } }',
    variables: {
      k: keyOf(inputs, n),
      in: {
        source: 'api',
        title: `${pick(TOPICS, n)} report ${n}`,
        content: feedbackText(n, textLength),
        email: `bench${n % 500}@example.com`,
        ...(sentiment ? { sentiment } : {}),
        metadata: { plan: n % 2 ? 'pro' : 'free', run: n },
      },
    },
  };
}

export const SCENARIOS: Scenario[] = [
  {
    id: 's1',
    title: 'feedbackItems(skip, take: 50, status, sentiment), every field and total',
    subgraph: 'feedback',
    mutation: false,
    body: (inputs, n) => ({
      query: `query S1($k: String!, $skip: Int, $status: String, $sentiment: String) { feedbackItems(apiKey: $k, skip: $skip, take: 50, status: $status, sentiment: $sentiment) { total items { ${FEEDBACK_FIELDS} } } }`,
      variables: {
        k: keyOf(inputs, n),
        skip: (n % 20) * 50,
        status: pick(STATUSES, n),
        sentiment: pick(SENTIMENTS, n, 2),
      },
    }),
  },
  {
    id: 's2',
    title: 'contactItems(search, skip, take: 20) with totalFeedbacks and lastInteraction (contacts + feedback)',
    subgraph: null,
    mutation: false,
    body: (inputs, n) => ({
      query: `query S2($k: String!, $s: String, $skip: Int) { contactItems(apiKey: $k, search: $s, skip: $skip, take: 20) { total items { id name email company totalFeedbacks lastInteraction } } }`,
      variables: { k: keyOf(inputs, n), s: pick(COMPANY_STEMS, n), skip: (n % 3) * 20 },
    }),
  },
  {
    id: 's3',
    title: 'accountItem(id), every field',
    subgraph: 'accounts',
    mutation: false,
    identicalRow: true,
    body: (inputs, n) => ({
      query: `query S3($k: String!, $id: String!) { accountItem(apiKey: $k, id: $id) { ${ACCOUNT_FIELDS} } }`,
      variables: { k: keyOf(inputs, n), id: pick(inputs.accountIds, n) },
    }),
  },
  {
    id: 's4',
    title: 'addFeedbackItem (short text, sentiment given)',
    subgraph: 'feedback',
    mutation: true,
    body: (inputs, n) => addFeedback(inputs, n, 120, pick(SENTIMENTS, n)),
  },
  {
    id: 's5',
    title: 'feedbackItem + contactItem + accountItem by id (all three subgraphs)',
    subgraph: null,
    mutation: false,
    identicalRow: true,
    body: (inputs, n) => ({
      query: `query S5($k: String!, $f: String!, $c: String!, $a: String!) {
        feedbackItem(apiKey: $k, id: $f) { id title sentiment status createdAt }
        contactItem(apiKey: $k, id: $c) { id name email company }
        accountItem(apiKey: $k, id: $a) { id name score churnRisk }
      }`,
      variables: {
        k: keyOf(inputs, n),
        f: pick(inputs.feedbackIds, n),
        c: pick(inputs.contactIds, n, 3),
        a: pick(inputs.accountIds, n, 7),
      },
    }),
  },
  {
    id: 's8',
    title:
      'feedbackItems(skip, take: 20, status or sentiment) with contact { account } (feedback -> contacts -> accounts)',
    subgraph: null,
    mutation: false,
    body: (inputs, n) => ({
      query: `query S8($k: String!, $skip: Int, $status: String, $sentiment: String) {
        feedbackItems(apiKey: $k, skip: $skip, take: 20, status: $status, sentiment: $sentiment) {
          total
          items { id title email sentiment contact { id name company account { id name domain } } }
        }
      }`,
      variables: {
        k: keyOf(inputs, n),
        skip: (n % 10) * 20,
        ...(n % 2 ? { status: pick(STATUSES, n) } : { sentiment: pick(SENTIMENTS, n) }),
      },
    }),
  },
  {
    id: 's6',
    title: 'addFeedbackItem, 2,000-character text, sentiment given',
    subgraph: 'feedback',
    mutation: true,
    unloadedOnly: true,
    body: (inputs, n) => addFeedback(inputs, n, 2_000, pick(SENTIMENTS, n)),
  },
  {
    id: 's7',
    title: 'addFeedbackItem, 2,000-character text, no sentiment (the service computes it)',
    subgraph: 'feedback',
    mutation: true,
    unloadedOnly: true,
    body: (inputs, n) => addFeedback(inputs, n, 2_000, undefined),
  },
];
