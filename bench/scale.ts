import { type Databases, seedOrganization } from '@fi/cli';
import { Types } from 'mongoose';
import { recountOrganization, SearchIndexStore, ThemeStore } from '@fi/feedback';
import { searchSettled, themesSettled, type SearchIndexFigures } from './settled';
import { KeyService, openRepositories, OPERATOR } from '@fi/identity';

/**
 * `npm run bench -- --scale`: the reads of an organization (issue "Flat at scale") timed one request at
 * a time at each size, median of 3 requests that differ (key, page, filter value), through our gateway;
 * then the growth from the first size to the last, and what another organization's growth does to a
 * small organization's reads. Seeding time is measured too.
 */

export interface ScaleRow {
  read: string;
  /** Median ms per size, or an error code. */
  bySize: Record<number, number | string>;
}

export interface ScaleResults {
  sizes: number[];
  seedSeconds: Record<number, number>;
  /** Seconds from the end of seeding until the theme worker had computed the themes and counted every day. */
  themeSeconds: Record<number, number>;
  /** The search indexer at each size: see searchSettled. */
  searchIndex: Record<number, SearchIndexFigures>;
  /** How the search row's requests were answered at each size (fi_feedback_searches_total). */
  searchPaths: Record<number, SearchPaths>;
  rows: ScaleRow[];
}

type SearchPaths = Record<'index' | 'matches' | 'regex', number>;

/** The feedback service's searches so far, by how they were answered. */
export async function searchPathsOf(feedbackUrl: string): Promise<SearchPaths> {
  const text = await (await fetch(`${feedbackUrl}/metrics`)).text();
  const count = (path: string) =>
    Number(new RegExp(`^fi_feedback_searches_total\\{[^}]*path="${path}"[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { index: count('index'), matches: count('matches'), regex: count('regex') };
}

const BIG = 'bench-scale';
const SMALL = 'bench-scale-small';
const SMALL_ITEMS = 1_000;
const KEYS = 3;
const DAY_MS = 86_400_000;

type Post = (url: string, body: string) => Promise<string>;

/** What the reads need from the organization: a first page's cursor, its largest themes' ids. */
interface ReadContext {
  cursor: string;
  themes: string[];
}

interface Read {
  name: string;
  /** The i-th variant of the request (0..2), for an organization's key. */
  body: (i: number, key: string, context: ReadContext) => { query: string; variables: Record<string, unknown> };
  small?: boolean;
}

/** What the insights page asks for: the range's figures, the previous period's, the terms and the rising themes. */
const INSIGHTS =
  'query($k: String!, $f: DateTime!, $t: DateTime!) { feedbackInsights(apiKey: $k, from: $f, to: $t) { total previous { total } topTerms { term } risingThemes { count } } }';

const SEARCH_READ = '`search` (3+ characters)';

/** The Insights chart's data for a year, as a client taking its range from the clock asks it (a time of day). */
const SERIES =
  'query($k: String!, $f: DateTime!, $t: DateTime!) { feedbackInsights(apiKey: $k, from: $f, to: $t, interval: "week") { total series { count } } }';
const SERIES_READ = '`feedbackInsights` `series`, 364-366 days to now, by week';

const midnight = (daysAgo: number) =>
  new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS).toISOString();

const READS: Read[] = [
  {
    name: '`feedbackItems` first page + `total`',
    small: true,
    body: (i, k) => ({
      query: `query($k: String!) { feedbackItems(apiKey: $k, take: ${50 - i}) { total items { id title } } }`,
      variables: { k },
    }),
  },
  {
    name: '`status` filter',
    body: (i, k) => ({
      query: 'query($k: String!, $s: String) { feedbackItems(apiKey: $k, status: $s) { total items { id } } }',
      variables: { k, s: ['unread', 'read', 'archived'][i] },
    }),
  },
  {
    name: '`sentiment` filter',
    body: (i, k) => ({
      query: 'query($k: String!, $s: String) { feedbackItems(apiKey: $k, sentiment: $s) { total items { id } } }',
      variables: { k, s: ['negative', 'positive', 'neutral'][i] },
    }),
  },
  {
    name: '`source` filter',
    body: (i, k) => ({
      query: 'query($k: String!, $s: String) { feedbackItems(apiKey: $k, source: $s) { total items { id } } }',
      variables: { k, s: ['email', 'api', 'slack'][i] },
    }),
  },
  {
    name: SEARCH_READ,
    body: (i, k) => ({
      query: 'query($k: String!, $s: String) { feedbackItems(apiKey: $k, search: $s) { total items { id } } }',
      variables: { k, s: ['export', 'billing', 'login'][i] },
    }),
  },
  {
    name: '`theme` filter',
    body: (i, k, { themes }) => ({
      query: 'query($k: String!, $t: String) { feedbackItems(apiKey: $k, theme: $t) { total items { id } } }',
      variables: { k, t: themes[i % themes.length] },
    }),
  },
  {
    name: '`after` cursor page',
    body: (_, k, { cursor }) => ({
      query: 'query($k: String!, $a: String) { feedbackItems(apiKey: $k, after: $a) { total items { id } } }',
      variables: { k, a: cursor },
    }),
  },
  {
    name: 'deep `skip` (item 5,000)',
    body: (i, k) => ({
      query: 'query($k: String!, $s: Int) { feedbackItems(apiKey: $k, skip: $s) { total items { id } } }',
      variables: { k, s: 5_000 + 50 * i },
    }),
  },
  {
    name: '`contactItems` + `totalFeedbacks`/`lastInteraction`',
    body: (i, k) => ({
      query:
        'query($k: String!, $s: Int) { contactItems(apiKey: $k, skip: $s) { items { totalFeedbacks lastInteraction } } }',
      variables: { k, s: 50 * i },
    }),
  },
  {
    name: '`accountItems` + `feedbackSummary`',
    body: (i, k) => ({
      query:
        'query($k: String!, $s: Int) { accountItems(apiKey: $k, skip: $s) { items { feedbackSummary { total unread lastFeedbackAt } } } }',
      variables: { k, s: 50 * i },
    }),
  },
  {
    name: '`feedbackInsights`, 30 days',
    small: true,
    body: (i, k) => ({ query: INSIGHTS, variables: { k, f: midnight(30 + i), t: midnight(i) } }),
  },
  {
    name: '`feedbackInsights`, 366 days',
    body: (i, k) => ({ query: INSIGHTS, variables: { k, f: midnight(365 + i), t: midnight(i - 1) } }),
  },
  {
    name: SERIES_READ,
    body: (i, k) => ({
      query: SERIES,
      variables: { k, f: new Date(Date.now() - (364 + i) * DAY_MS).toISOString(), t: new Date().toISOString() },
    }),
  },
  {
    name: '`feedbackThemes`, 366 days',
    body: (i, k) => ({
      query:
        'query($k: String!, $f: DateTime!, $t: DateTime!) { feedbackThemes(apiKey: $k, from: $f, to: $t) { total items { label count negative previousCount } } }',
      variables: { k, f: midnight(365 + i), t: midnight(i - 1) },
    }),
  },
  {
    name: '`addFeedbackItem`',
    body: (i, k) => ({
      query:
        'mutation($k: String!, $t: String!) { addFeedbackItem(apiKey: $k, input: { source: "api", title: $t, content: "Bench item" }) { id } }',
      variables: { k, t: `Bench ${Date.now()} ${i}` },
    }),
  },
];

/** Reads timed right after seeding, before the theme worker and the search indexer have caught up. */
const FRESH_READS = READS.filter((read) => read.name === SERIES_READ || read.name === SEARCH_READ);

/**
 * `--clone`: grows the organization by copying its items (text, dates, sources, status, sentiment,
 * emails and themes as seeded and computed) under new ids, in batches of `insertMany`, then recounts it
 * as an upgrade counts items stored around the API. A quicker way to 100,000 items than seeding them
 * (about 30 minutes here); the theme worker then computes and counts as after any import.
 */
async function cloneItems(db: Databases, orgId: string, copies: number): Promise<void> {
  const items = db.feedback.collection('feedback_items');
  const originals = await items.find({ orgId }).toArray();
  for (let copy = 0; copy < copies; copy += 1) {
    for (let start = 0; start < originals.length; start += 2_000) {
      // Without the originals' change ids: a copy was not written by their changes.
      await items.insertMany(
        originals
          .slice(start, start + 2_000)
          .map(({ webhookEventIds: _changes, ...doc }) => ({ ...doc, _id: new Types.ObjectId() })),
      );
    }
  }
  await recountOrganization(db.feedback, orgId);
}

/** Median of the request times, or the error code of a failed request. */
async function time(
  post: Post,
  url: string,
  bodies: Array<{ query: string; variables: Record<string, unknown> }>,
): Promise<number | string> {
  const times: number[] = [];
  for (const body of bodies) {
    const started = Date.now();
    const text = await post(url, JSON.stringify(body));
    const elapsed = Date.now() - started;
    const answer = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> };
    if (answer.errors?.length) return answer.errors[0].extensions?.code ?? 'error';
    times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function scaleBench(
  url: string,
  db: Databases,
  sizes: number[],
  profile: { contacts: number; accounts: number },
  post: Post,
  say: (line: string) => void,
  searchPaths: () => Promise<SearchPaths>,
  clone = false,
): Promise<ScaleResults> {
  const keyService = new KeyService(await openRepositories(db.identity));
  const keys = async (orgId: string) => {
    await keyService.organizationFor(OPERATOR, orgId, 'enterprise');
    return Promise.all(
      Array.from(
        { length: KEYS },
        async (_, i) =>
          (await keyService.create(OPERATOR, orgId, { name: `scale ${i}`, readOnly: false, rateLimitPerMinute: null }))
            .key,
      ),
    );
  };
  const bigKeys = await keys(BIG);
  const smallKeys = await keys(SMALL);
  const quiet = { result: say, info: say };
  await seedOrganization(SMALL, { feedback: SMALL_ITEMS, contacts: 100, accounts: 20 }, db, quiet, { seed: 7 });
  const themes = new ThemeStore(db.feedback);
  const search = new SearchIndexStore(db.feedback);
  const results: ScaleResults = {
    sizes,
    seedSeconds: {},
    themeSeconds: {},
    searchIndex: {},
    searchPaths: {},
    rows: [],
  };
  const row = (read: string) => {
    let found = results.rows.find((r) => r.read === read);
    if (!found) results.rows.push((found = { read, bySize: {} }));
    return found;
  };
  let seeded = 0;
  for (const size of sizes) {
    const indexedBefore = (await search.state(BIG)) ?? { next: 0, workMs: 0 };
    const started = Date.now();
    if (clone && seeded > 0) await cloneItems(db, BIG, size / seeded - 1);
    else
      await seedOrganization(
        BIG,
        { feedback: size - seeded, contacts: profile.contacts, accounts: profile.accounts },
        db,
        quiet,
        { feedbackOnly: seeded > 0 },
      );
    results.seedSeconds[size] = Math.round((Date.now() - started) / 100) / 10;
    say(
      `${clone && seeded > 0 ? 'Cloned' : 'Seeded'} ${BIG} to ${size.toLocaleString('en')} items in ${results.seedSeconds[size]} s`,
    );
    seeded = size;
    // What a customer's first requests after an import get: the search index and the themes still behind.
    for (const read of FRESH_READS) {
      const median = await time(
        post,
        url,
        [0, 1, 2].map((i) => read.body(i, bigKeys[i], { cursor: '', themes: [] })),
      );
      row(`${read.name}, right after seeding`).bySize[size] = median;
      say(
        `${size.toLocaleString('en')} items right after seeding, ${read.name}: ${median}${typeof median === 'number' ? ' ms' : ''}`,
      );
    }
    await themesSettled(themes, SMALL);
    results.themeSeconds[size] = await themesSettled(themes, BIG);
    say(`Themes of ${BIG} computed and counted ${results.themeSeconds[size]} s after its seeding`);
    const indexed = (results.searchIndex[size] = await searchSettled(search, BIG, {
      items: indexedBefore.next,
      workMs: indexedBefore.workMs,
    }));
    say(
      `Search index of ${BIG} caught up ${indexed.seconds} s after the themes: ${indexed.items} items in ${indexed.workMs} ms of indexing, ${indexed.postings} posting documents, ${indexed.bytes} bytes`,
    );
    const first = JSON.parse(
      await post(
        url,
        JSON.stringify({
          query: 'query($k: String!) { feedbackItems(apiKey: $k) { nextCursor } }',
          variables: { k: bigKeys[0] },
        }),
      ),
    ) as {
      data?: { feedbackItems: { nextCursor: string } };
    };
    const cursor = first.data?.feedbackItems.nextCursor ?? '';
    const largest = JSON.parse(
      await post(
        url,
        JSON.stringify({
          query: 'query($k: String!) { feedbackThemes(apiKey: $k, take: 3) { items { id } } }',
          variables: { k: bigKeys[0] },
        }),
      ),
    ) as {
      data?: { feedbackThemes: { items: Array<{ id: string }> } };
    };
    const themeIds = largest.data?.feedbackThemes.items.map((theme) => theme.id) ?? [];
    if (themeIds.length === 0) throw new Error(`${BIG} has no themes after the theme worker settled`);
    for (const read of READS) {
      const pathsBefore = await searchPaths();
      const median = await time(
        post,
        url,
        [0, 1, 2].map((i) => read.body(i, bigKeys[i], { cursor, themes: themeIds })),
      );
      const pathsAfter = await searchPaths();
      if (read.name === SEARCH_READ)
        results.searchPaths[size] = {
          index: pathsAfter.index - pathsBefore.index,
          matches: pathsAfter.matches - pathsBefore.matches,
          regex: pathsAfter.regex - pathsBefore.regex,
        };
      row(read.name).bySize[size] = median;
      say(`${size.toLocaleString('en')} items, ${read.name}: ${median}${typeof median === 'number' ? ' ms' : ''}`);
      if (read.small) {
        const small = await time(
          post,
          url,
          [0, 1, 2].map((i) => read.body(i, smallKeys[i], { cursor, themes: themeIds })),
        );
        row(`${read.name}, a ${SMALL_ITEMS.toLocaleString('en')}-item organization beside it`).bySize[size] = small;
      }
    }
  }
  return results;
}

export function scaleMarkdown(results: ScaleResults, machine: string, clone = false): string {
  const [first, last] = [results.sizes[0], results.sizes[results.sizes.length - 1]];
  const cell = (value: number | string | undefined) => (typeof value === 'number' ? `${value} ms` : (value ?? '-'));
  const growth = (r: ScaleRow) => {
    const a = r.bySize[first];
    const b = r.bySize[last];
    return typeof a === 'number' && typeof b === 'number' ? `${(b / Math.max(1, a)).toFixed(1)}x` : '-';
  };
  const sizes = results.sizes.map((size) => `${size.toLocaleString('en')} items`);
  return [
    `# Scale: one organization's reads as it grows (\`npm run bench -- --scale\`)`,
    '',
    `${machine}. Median of 3 different requests, one at a time, through our gateway.`,
    '',
    `| read (take 50) | ${sizes.join(' | ')} | growth |`,
    `|---|${results.sizes.map(() => '---|').join('')}---|`,
    ...results.rows.map(
      (r) => `| ${r.read} | ${results.sizes.map((size) => cell(r.bySize[size])).join(' | ')} | ${growth(r)} |`,
    ),
    '',
    `${clone ? 'Seeding the first size, then copying its items (`--clone`, with a recount)' : 'Seeding'}: ${results.sizes.map((size) => `to ${size.toLocaleString('en')} items ${results.seedSeconds[size]} s`).join(', ')}.`,
    `Themes computed and their days counted by the theme worker after seeding (the reads wait for it): ${results.sizes.map((size) => `${size.toLocaleString('en')} items ${results.themeSeconds[size]} s`).join(', ')}.`,
    `Search index (the reads wait for it to hold every item): ${results.sizes
      .map((size) => {
        const figures = results.searchIndex[size];
        const perItem = (figures.workMs / Math.max(1, figures.items)).toFixed(2);
        return `${size.toLocaleString('en')} items: ${figures.items.toLocaleString('en')} indexed in ${(figures.workMs / 1000).toFixed(1)} s of the indexer's work (${perItem} ms an item), caught up ${figures.seconds} s after the themes; ${figures.postings.toLocaleString('en')} posting documents, ${Math.round(figures.bytes / size)} bytes an item`;
      })
      .join('; ')}.`,
    `The search row's requests, by how the feedback service answered them (the index alone, its matches read from the items, a regex): ${results.sizes
      .map((size) => {
        const paths = results.searchPaths[size];
        return `${size.toLocaleString('en')} items: ${paths ? `${paths.index} / ${paths.matches} / ${paths.regex}` : '-'}`;
      })
      .join('; ')}.`,
  ].join('\n');
}
