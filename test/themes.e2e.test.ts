import { Types } from 'mongoose';
import { recountOrganization } from '@fi/feedback';
import { eventually } from './helpers/processes';
import { REMOVE_FEEDBACK } from './helpers/queries';
import { ownDatabaseName, startStack, type Stack } from './helpers/stack';

const ADD = `mutation($apiKey: String!, $input: NewFeedbackInput!) { addFeedbackItem(apiKey: $apiKey, input: $input) { id } }`;
const THEMES = `query($apiKey: String!, $from: DateTime, $to: DateTime, $source: String, $take: Int) {
  feedbackThemes(apiKey: $apiKey, from: $from, to: $to, source: $source, take: $take) {
    total computedAt items { id label keywords count negative previousCount examples(take: 2) { id themes { id } } }
  }
}`;
const ITEM_THEMES = `query($apiKey: String!, $id: String!) { feedbackItem(apiKey: $apiKey, id: $id) { id themes { id label count } } }`;
const BY_THEME = `query($apiKey: String!, $theme: String) { feedbackItems(apiKey: $apiKey, theme: $theme, take: 100) { total items { id themes { id } } } }`;
const RENAME = `mutation($apiKey: String!, $id: String!, $label: String!) { renameFeedbackTheme(apiKey: $apiKey, id: $id, label: $label) { id label count } }`;
const MERGE = `mutation($apiKey: String!, $id: String!, $themeIds: [String!]!) { mergeFeedbackThemes(apiKey: $apiKey, id: $id, themeIds: $themeIds) { id label } }`;
const UNMERGE = `mutation($apiKey: String!, $id: String!) { unmergeFeedbackThemes(apiKey: $apiKey, id: $id) { id label } }`;

interface Theme {
  id: string;
  label: string;
  keywords: string[];
  count: number;
  negative: number;
  previousCount: number;
  examples: Array<{ id: string; themes: Array<{ id: string }> }>;
}
interface ThemeList {
  total: number;
  computedAt: string | null;
  items: Theme[];
}

/** Feedback of our own about three subjects, in varied words, and two unrelated singles. */
const SUBJECTS: Record<string, Array<[string, string]>> = {
  csv: [
    ['CSV export cuts off', 'The CSV export stops after 1,000 rows.'],
    ['Export to CSV broken', 'Our CSV export has garbled accents when opened in Excel.'],
    ['CSV export please', 'Can the CSV export include the custom fields?'],
    ['Slow CSV export', 'A CSV export of all projects takes ten minutes.'],
    ['CSV export love', 'The CSV export with chosen columns is great.'],
  ],
  dark: [
    ['Dark mode', 'Please add a dark mode for late shifts.'],
    ['Dark mode contrast', 'In dark mode the grey text is unreadable.'],
    ['Dark mode resets', 'Dark mode goes back to light after every login.'],
    ['Love dark mode', 'The dark mode looks fantastic on my laptop.'],
  ],
  slack: [
    ['Slack posts twice', 'The Slack integration posts every update twice.'],
    ['Slack channel', 'Can the Slack integration post to a private channel?'],
    ['Slack is great', 'The Slack integration keeps the team in the loop.'],
    ['Slack mentions', 'Slack integration messages should mention the assignee.'],
  ],
};
const SINGLES: Array<[string, string]> = [
  ['Gantt colours', 'Could the Gantt chart use the project colour?'],
  ['Invoice VAT', 'Our invoice lacks the VAT number.'],
];

let stack: Stack;
beforeAll(async () => {
  // Own database: the computation visits every organization of its database in the background.
  stack = await startStack({ THEMES_INTERVAL_MS: '200' }, { databases: { feedback: ownDatabaseName('themes') } });
});
afterAll(() => stack.close());

async function add(apiKey: string, title: string, content: string): Promise<string> {
  const response = await stack.gql<{ addFeedbackItem: { id: string } }>(ADD, {
    apiKey,
    input: { source: 'api', title, content },
  });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.addFeedbackItem.id;
}

async function themes(apiKey: string, variables: Record<string, unknown> = {}): Promise<ThemeList> {
  const response = await stack.gql<{ feedbackThemes: ThemeList }>(THEMES, { apiKey, take: 100, ...variables });
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.feedbackThemes;
}

/** Adds the subjects' feedback and waits until every item is in the computed themes. */
async function seed(apiKey: string): Promise<Record<string, string[]>> {
  const ids: Record<string, string[]> = {};
  for (const [subject, texts] of Object.entries(SUBJECTS)) {
    ids[subject] = [];
    for (const [title, content] of texts) ids[subject].push(await add(apiKey, title, content));
  }
  for (const [title, content] of SINGLES) await add(apiKey, title, content);
  const themed = Object.values(ids).flat().length;
  await eventually(
    async () => (await themes(apiKey)).items.reduce((sum, theme) => sum + theme.count, 0) >= themed,
    60_000,
    'the themes to hold every item',
  );
  return ids;
}

describe('feedback themes', () => {
  let key: string;
  let orgId: string;
  let ids: Record<string, string[]>;
  beforeAll(async () => {
    ({ key, orgId } = await stack.createKey());
    ids = await seed(key);
  });

  test('when items about three subjects are added, then each subject is one theme with a readable label', async () => {
    const list = await themes(key);
    expect(list.computedAt).not.toBeNull();
    const labels = list.items.map((theme) => theme.label);
    expect(labels).toEqual(expect.arrayContaining(['CSV export', 'Dark mode', 'Slack integration']));
    for (const members of Object.values(ids)) {
      const themeIds = new Set<string>();
      for (const id of members) {
        const item = (
          await stack.gql<{ feedbackItem: { themes: Array<{ id: string }> } }>(ITEM_THEMES, { apiKey: key, id })
        ).body.data!.feedbackItem;
        themeIds.add(item.themes[0].id);
      }
      expect(themeIds.size).toBe(1);
    }
    expect(list.total).toBe(list.items.length);
    expect(list.items.map((theme) => theme.count)).toEqual(
      [...list.items.map((theme) => theme.count)].sort((a, b) => b - a),
    );
  });

  test('when a theme is listed, then its count, examples and feedbackItems(theme) agree', async () => {
    const list = await themes(key);
    for (const theme of list.items) {
      const items = (
        await stack.gql<{
          feedbackItems: { total: number; items: Array<{ id: string; themes: Array<{ id: string }> }> };
        }>(BY_THEME, { apiKey: key, theme: theme.id })
      ).body.data!.feedbackItems;
      expect(items.total).toBe(theme.count);
      for (const item of items.items) expect(item.themes.map((t) => t.id)).toContain(theme.id);
      expect(theme.examples.length).toBe(Math.min(2, theme.count));
      for (const example of theme.examples) expect(example.themes.map((t) => t.id)).toContain(theme.id);
    }
  });

  test('when the range is before the items, then no theme is listed and the items count as the next period’s previous', async () => {
    const now = Date.now();
    expect(
      (
        await themes(key, {
          from: new Date(now - 3_600_000).toISOString(),
          to: new Date(now - 1_800_000).toISOString(),
        })
      ).items,
    ).toEqual([]);
    const next = await themes(key, {
      from: new Date(now + 60_000).toISOString(),
      to: new Date(now + 7_200_000).toISOString(),
    });
    expect(next.items).toEqual([]);
    const around = await themes(key, {
      from: new Date(now - 600_000).toISOString(),
      to: new Date(now + 600_000).toISOString(),
    });
    expect(around.items.every((theme) => theme.previousCount === 0 && theme.count > 0)).toBe(true);
  });

  test('when a theme is renamed and more items arrive, then it keeps its id and its new label', async () => {
    const before = await themes(key);
    const csv = before.items.find((theme) => theme.label === 'CSV export')!;
    const renamed = await stack.gql<{ renameFeedbackTheme: { id: string; label: string; count: number } }>(RENAME, {
      apiKey: key,
      id: csv.id,
      label: '  Spreadsheet export  ',
    });
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data!.renameFeedbackTheme).toEqual({
      id: csv.id,
      label: 'Spreadsheet export',
      count: csv.count,
    });

    const added = await add(key, 'CSV export dates', 'The CSV export writes dates in the wrong format.');
    await eventually(
      async () => (await themes(key)).items.some((theme) => theme.id === csv.id && theme.count === csv.count + 1),
      60_000,
      'the new item in its theme',
    );
    const after = await themes(key);
    expect(after.items.find((theme) => theme.id === csv.id)!.label).toBe('Spreadsheet export');
    for (const theme of before.items.filter((t) => t.id !== csv.id))
      expect(after.items.find((t) => t.id === theme.id)?.label).toBe(theme.label);
    const item = (
      await stack.gql<{ feedbackItem: { themes: Array<{ id: string; label: string }> } }>(ITEM_THEMES, {
        apiKey: key,
        id: added,
      })
    ).body.data!.feedbackItem;
    expect(item.themes[0]).toMatchObject({ id: csv.id, label: 'Spreadsheet export' });
  });

  test('when themes have more items than in the previous period, then insights list them as rising', async () => {
    const now = Date.now();
    const query = `query($apiKey: String!, $from: DateTime!, $to: DateTime!) {
      feedbackInsights(apiKey: $apiKey, from: $from, to: $to) { risingThemes { count previousCount theme { id label } } }
    }`;
    const response = await stack.gql<{
      feedbackInsights: {
        risingThemes: Array<{ count: number; previousCount: number; theme: { id: string; label: string } }>;
      };
    }>(query, {
      apiKey: key,
      from: new Date(now - 3_600_000).toISOString(),
      to: new Date(now + 60_000).toISOString(),
    });
    expect(response.body.errors).toBeUndefined();
    const rising = response.body.data!.feedbackInsights.risingThemes;
    const listed = (await themes(key)).items;
    expect(rising.map((entry) => entry.theme.id).sort()).toEqual(listed.map((theme) => theme.id).sort());
    for (const entry of rising)
      expect(entry).toMatchObject({
        previousCount: 0,
        count: listed.find((theme) => theme.id === entry.theme.id)!.count,
      });
  });

  test('when a rename is refused, then the error names why', async () => {
    const { items } = await themes(key);
    const reader = await stack.createKey({ orgId, readOnly: true });
    expect(
      (await stack.gql(RENAME, { apiKey: reader.key, id: items[0].id, label: 'x' })).body.errors?.[0].extensions?.code,
    ).toBe('FORBIDDEN');
    expect(
      (await stack.gql(RENAME, { apiKey: key, id: items[0].id, label: '   ' })).body.errors?.[0].extensions?.code,
    ).toBe('BAD_REQUEST');
    expect(
      (await stack.gql(RENAME, { apiKey: key, id: items[0].id, label: 'x'.repeat(101) })).body.errors?.[0].extensions
        ?.code,
    ).toBe('BAD_REQUEST');
    expect(
      (await stack.gql(RENAME, { apiKey: key, id: 'th_unknown', label: 'x' })).body.errors?.[0].extensions?.code,
    ).toBe('NOT_FOUND');
  });

  test('when another organization asks, then it sees none of these themes, items or renames', async () => {
    const mine = await themes(key);
    const other = await stack.createKey();
    const otherItem = await add(other.key, 'CSV export cuts off', 'The CSV export stops after 1,000 rows.');
    const theirs = await themes(other.key);
    const mineIds = new Set(mine.items.map((theme) => theme.id));
    expect(theirs.items.some((theme) => mineIds.has(theme.id))).toBe(false);
    for (const theme of mine.items) {
      expect(
        (await stack.gql<{ feedbackItems: { total: number } }>(BY_THEME, { apiKey: other.key, theme: theme.id })).body
          .data!.feedbackItems.total,
      ).toBe(0);
      expect(
        (await stack.gql(RENAME, { apiKey: other.key, id: theme.id, label: 'Hijacked' })).body.errors?.[0].extensions
          ?.code,
      ).toBe('NOT_FOUND');
    }
    const item = (
      await stack.gql<{ feedbackItem: { themes: Array<{ id: string }> } }>(ITEM_THEMES, {
        apiKey: other.key,
        id: otherItem,
      })
    ).body.data!.feedbackItem;
    expect(item.themes.some((theme) => mineIds.has(theme.id))).toBe(false);
    expect((await themes(key)).items.map((theme) => theme.label)).not.toContain('Hijacked');
  });
});

describe('merged themes', () => {
  const countOf = (list: ThemeList, id: string) => list.items.find((theme) => theme.id === id)?.count;
  const firstThemeOf = async (apiKey: string, id: string) =>
    (await stack.gql<{ feedbackItem: { themes: Array<{ id: string }> } }>(ITEM_THEMES, { apiKey, id })).body.data!
      .feedbackItem.themes[0]?.id;

  test('when a person merges two themes, then their items stay in one theme under its id and label through later computations, and an unmerge gives the other back', async () => {
    const { key } = await stack.createKey();
    const ids = await seed(key);
    const before = await themes(key);
    const csv = before.items.find((theme) => theme.label === 'CSV export')!;
    const dark = before.items.find((theme) => theme.label === 'Dark mode')!;
    const merged = await stack.gql<{ mergeFeedbackThemes: { id: string; label: string } }>(MERGE, {
      apiKey: key,
      id: csv.id,
      themeIds: [dark.id, dark.id],
    });
    expect(merged.body.errors).toBeUndefined();
    expect(merged.body.data!.mergeFeedbackThemes).toEqual({ id: csv.id, label: 'CSV export' });
    await eventually(
      async () => countOf(await themes(key), csv.id) === csv.count + dark.count,
      60_000,
      'the merge computed',
    );
    expect(countOf(await themes(key), dark.id)).toBeUndefined();
    for (const id of ids.dark) expect(await firstThemeOf(key, id)).toBe(csv.id);

    // A later computation would split them again by their words; the merge holds.
    const added = await add(key, 'Dark mode schedule', 'Dark mode should follow the system setting at sunset.');
    await eventually(
      async () => countOf(await themes(key), csv.id) === csv.count + dark.count + 1,
      60_000,
      'the new item in the merged theme',
    );
    const after = await themes(key);
    expect(after.items.find((theme) => theme.id === csv.id)!.label).toBe('CSV export');
    expect(countOf(after, dark.id)).toBeUndefined();
    expect(await firstThemeOf(key, added)).toBe(csv.id);

    const unmerged = await stack.gql<{ unmergeFeedbackThemes: { id: string } }>(UNMERGE, { apiKey: key, id: csv.id });
    expect(unmerged.body.errors).toBeUndefined();
    await eventually(
      async () => countOf(await themes(key), dark.id) === dark.count + 1,
      60_000,
      'the merged theme back',
    );
    const apart = await themes(key);
    expect(countOf(apart, csv.id)).toBe(csv.count);
    expect(apart.items.find((theme) => theme.id === dark.id)!.label).toBe('Dark mode');
    for (const id of [...ids.dark, added]) expect(await firstThemeOf(key, id)).toBe(dark.id);
  });

  test('when a merge is refused, then the error names why, and another organization can merge none of these themes', async () => {
    const { key, orgId } = await stack.createKey();
    await seed(key);
    const [first, second, third] = (await themes(key)).items;
    const merge = async (apiKey: string, id: string, themeIds: string[]) =>
      (await stack.gql(MERGE, { apiKey, id, themeIds })).body.errors?.[0];
    const reader = await stack.createKey({ orgId, readOnly: true });
    expect((await merge(reader.key, first.id, [second.id]))?.extensions?.code).toBe('FORBIDDEN');
    expect((await stack.gql(UNMERGE, { apiKey: reader.key, id: first.id })).body.errors?.[0].extensions?.code).toBe(
      'FORBIDDEN',
    );
    expect(await merge(key, first.id, [])).toMatchObject({
      message: 'themeIds must name 1 to 20 themes (got 0)',
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(
      (
        await merge(
          key,
          first.id,
          Array.from({ length: 21 }, (_, i) => `th_${i}`),
        )
      )?.extensions?.code,
    ).toBe('BAD_REQUEST');
    expect(await merge(key, first.id, [first.id])).toMatchObject({
      message: 'themeIds must not name the theme they are merged into',
    });
    expect(await merge(key, first.id, [second.id, 'th_unknown'])).toMatchObject({
      message: 'Theme not found: 1 of themeIds',
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await merge(key, 'th_unknown', [second.id]))?.extensions?.code).toBe('NOT_FOUND');

    const other = await stack.createKey();
    await add(other.key, 'Slack posts twice', 'The Slack integration posts every update twice.');
    expect((await merge(other.key, first.id, [second.id]))?.extensions?.code).toBe('NOT_FOUND');
    expect((await stack.gql(UNMERGE, { apiKey: other.key, id: first.id })).body.errors?.[0].extensions?.code).toBe(
      'NOT_FOUND',
    );

    expect(await merge(key, first.id, [second.id])).toBeUndefined();
    expect(await merge(key, second.id, [third.id])).toMatchObject({
      message: 'the theme is itself merged into another one: merge into that one',
    });
  });
});

/** Per theme, the items and negative items in [from, to) of a source, counted by brute force over every item of the organization. */
async function countedByHand(
  orgId: string,
  range: { from?: string; to: string; source?: string },
): Promise<Map<string, { count: number; negative: number }>> {
  const db = await stack.connect('feedback');
  const active = new Set(
    (await db.collection('feedback_themes').find({ orgId, active: true }).toArray()).map((theme) => String(theme._id)),
  );
  const counts = new Map<string, { count: number; negative: number }>();
  for (const item of await db.collection('feedback_items').find({ orgId }).toArray()) {
    const published = (item.publishedDate as Date).getTime();
    if ((range.from && published < Date.parse(range.from)) || published >= Date.parse(range.to)) continue;
    if (range.source !== undefined && item.source !== range.source) continue;
    for (const id of (item.themeIds as string[] | undefined) ?? []) {
      if (!active.has(id)) continue;
      const entry = counts.get(id) ?? { count: 0, negative: 0 };
      entry.count += 1;
      if (item.sentiment === 'negative') entry.negative += 1;
      counts.set(id, entry);
    }
  }
  return counts;
}

/** A deterministic sequence in [0, 1) (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('kept theme figures', () => {
  const DAY = (day: number, hour = 0) => new Date(Date.UTC(2026, 2, day, hour)).toISOString();
  const RANGES: Array<{ from?: string; to: string; source?: string }> = [
    { from: DAY(3), to: DAY(6) },
    { from: DAY(3), to: DAY(6), source: 'email' },
    { from: DAY(2, 6), to: DAY(5, 18) },
    { from: DAY(4, 6), to: DAY(4, 18) },
    { from: DAY(5), to: DAY(6, 12) },
  ];

  /** True when feedbackThemes answers every range (and its previous period, and all time) as counted by hand. */
  async function agree(key: string, orgId: string): Promise<boolean> {
    for (const range of [...RANGES, { to: new Date(Date.now() + 60_000).toISOString() }]) {
      const listed = new Map((await themes(key, range)).items.map((theme) => [theme.id, theme]));
      const current = await countedByHand(orgId, range);
      const length = range.from ? Date.parse(range.to) - Date.parse(range.from) : 0;
      const previous = range.from
        ? await countedByHand(orgId, {
            ...range,
            from: new Date(Date.parse(range.from) - length).toISOString(),
            to: range.from,
          })
        : new Map();
      if (listed.size !== current.size) return false;
      for (const [id, { count, negative }] of current) {
        const theme = listed.get(id);
        if (
          !theme ||
          theme.count !== count ||
          theme.negative !== negative ||
          theme.previousCount !== (previous.get(id)?.count ?? 0)
        )
          return false;
      }
    }
    return true;
  }

  test('when items of past days are written, changed, merged, removed and themed again, then whole and partial days agree with a count of the items', async () => {
    const { key, orgId } = await stack.createKey();
    const next = random(20);
    const texts = [...Object.values(SUBJECTS).flat(), ...SINGLES];
    const SOURCES = ['email', 'api', 'slack'];
    const SENTIMENTS = ['negative', 'positive', 'neutral', null];
    const db = await stack.connect('feedback');
    const ids: string[] = [];
    // Three copies of each text over February 27 to March 6, as an import of old feedback stores them.
    await db.collection('feedback_items').insertMany(
      texts.flatMap(([title, content]) =>
        [0, 1, 2].map(() => {
          const published = new Date(Date.UTC(2026, 1, 27) + Math.floor(next() * 8 * 86_400_000));
          const sentiment = SENTIMENTS[Math.floor(next() * SENTIMENTS.length)];
          const _id = new Types.ObjectId();
          ids.push(_id.toHexString());
          return {
            _id,
            orgId,
            source: SOURCES[Math.floor(next() * SOURCES.length)],
            title,
            content,
            ...(sentiment ? { sentiment } : {}),
            status: 'unread',
            publishedDate: published,
            createdAt: published,
          };
        }),
      ),
    );
    await recountOrganization(db, orgId);
    await eventually(
      async () => (await themes(key, { from: DAY(1), to: DAY(7) })).total >= 3 && agree(key, orgId),
      60_000,
      'the kept theme figures of the stored items',
    );

    const pick = () => ids.splice(Math.floor(next() * ids.length), 1)[0];
    for (let i = 0; i < 6; i += 1) {
      const status = ['read', 'archived'][i % 2];
      expect(
        (
          await stack.gql(
            'mutation($k: String!, $id: String!, $s: String!) { updateFeedbackItemStatus(apiKey: $k, id: $id, status: $s) { id } }',
            { k: key, id: ids[Math.floor(next() * ids.length)], s: status },
          )
        ).body.errors,
      ).toBeUndefined();
    }
    for (let i = 0; i < 3; i += 1)
      expect((await stack.gql(REMOVE_FEEDBACK, { apiKey: key, id: pick() })).body.errors).toBeUndefined();
    const [kept, first, second] = [ids[0], pick(), pick()];
    expect(
      (
        await stack.gql(
          'mutation($k: String!, $id: String!, $d: [String!]!) { mergeFeedbackItems(apiKey: $k, id: $id, duplicateIds: $d) { id } }',
          { k: key, id: kept, d: [first, second] },
        )
      ).body.errors,
    ).toBeUndefined();
    expect(
      (
        await stack.gql('mutation($k: String!, $id: String!) { unmergeFeedbackItem(apiKey: $k, id: $id) { id } }', {
          k: key,
          id: first,
        })
      ).body.errors,
    ).toBeUndefined();
    // The themes were computed from the items as they are, and the worker has nothing left to count (today's cell too).
    const settled = async () => {
      const items = db.collection('feedback_items');
      const [count, newest, run] = await Promise.all([
        items.countDocuments({ orgId }),
        items.findOne({ orgId }, { sort: { _id: -1 } }),
        db.collection('feedback_theme_runs').findOne({ _id: orgId as never }),
      ]);
      return (
        run?.fingerprint === `${count}:${String(newest?._id)}` &&
        (await db.collection('feedback_counts').countDocuments({ orgId, scope: 'day', dirty: true })) === 0
      );
    };
    await eventually(settled, 60_000, 'the writes to be themed');
    // A sentiment changed around the API (as a backfill does), recounted as the backfill does, while the
    // worker is idle (a recount rewrites cells from what it read, so a write made while it runs is overwritten).
    await db
      .collection('feedback_items')
      .updateOne({ _id: new Types.ObjectId(pick()) }, { $set: { sentiment: 'negative' } });
    await recountOrganization(db, orgId);
    // New feedback makes the themes be computed again (and may move older items between themes).
    for (const [title, content] of SUBJECTS.dark) await add(key, title, content);
    await eventually(
      async () => (await settled()) && agree(key, orgId),
      60_000,
      'the kept theme figures after the writes',
    );
    // Nothing left to repair: the kept figures are the items' own.
    expect((await recountOrganization(db, orgId)).drift).toBe(0);
  });
});
