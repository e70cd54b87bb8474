import type { FeedbackItem, ThemeMatch } from '../src/core';
import {
  acceptSuggestedTheme,
  checkPlacement,
  composeThemeIds,
  correctItemTheme,
  createCuratedTheme,
  curatedAssignment,
  parseThemeInput,
  removeCuratedTheme,
  repeatedSuggestions,
  themeMatcher,
  updateCuratedTheme,
  type Correction,
  type CuratedPorts,
  type ItemThemes,
  type Theme,
} from '../src/themes';

type Taxonomy = CuratedPorts['taxonomy'];

/** The error a use case rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<{ extensions: Record<string, unknown> }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: { extensions: Record<string, unknown> }) => error,
  );
}

/** The taxonomy's store in memory: themes and items of several organizations, writes of an item's themes conditional on its revision. */
class MemoryTaxonomy implements Taxonomy {
  readonly themes = new Map<string, Theme>();
  readonly items = new Map<string, { orgId: string; themes: ItemThemes }>();
  readonly corrections: Array<Correction & { orgId: string }> = [];
  /** Runs before a conditional write of an item's themes (another writer getting there first). */
  interfere: (() => void) | null = null;
  private next = 0;

  addItem(orgId: string, id: string, themeIds: string[] = []) {
    this.items.set(id, { orgId, themes: { id, themeIds, matches: [], rev: 0, day: '2026-01-01', source: 'api' } });
  }
  addSuggestion(orgId: string, id: string, label: string) {
    this.themes.set(id, {
      id,
      orgId,
      label,
      keywords: [],
      summary: null,
      curated: false,
      description: null,
      parentId: null,
      exampleIds: [],
    });
  }

  private readonly queues = new Map<string, Promise<unknown>>();
  /** One write of an organization's taxonomy at a time, as the store's lock gives. */
  async exclusive<T>(orgId: string, write: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(orgId) ?? Promise.resolve()).then(write, write);
    this.queues.set(
      orgId,
      run.catch(() => undefined),
    );
    return run;
  }
  async curated(orgId: string) {
    return [...this.themes.values()].filter((theme) => theme.orgId === orgId && theme.curated);
  }
  async find(orgId: string, id: string) {
    const theme = this.themes.get(id);
    return theme?.orgId === orgId ? theme : null;
  }
  async existingItems(orgId: string, ids: readonly string[]) {
    return new Set(ids.filter((id) => this.items.get(id)?.orgId === orgId));
  }
  async insert(orgId: string, fields: Parameters<Taxonomy['insert']>[1]) {
    const theme: Theme = {
      id: `th_${(this.next += 1)}`,
      orgId,
      curated: true,
      summary: null,
      ...fields,
      exampleIds: fields.exampleIds ?? [],
    };
    this.themes.set(theme.id, theme);
    return theme;
  }
  async replace(orgId: string, id: string, fields: Parameters<Taxonomy['replace']>[2]) {
    const theme = await this.find(orgId, id);
    if (!theme?.curated) return null;
    const changed = { ...theme, ...fields, exampleIds: fields.exampleIds ?? theme.exampleIds };
    this.themes.set(id, changed);
    return changed;
  }
  async remove(orgId: string, id: string) {
    const theme = await this.find(orgId, id);
    if (!theme?.curated) return false;
    this.themes.delete(id);
    for (const child of this.themes.values()) if (child.parentId === id) child.parentId = theme.parentId;
    return true;
  }
  async accept(orgId: string, id: string, examples: number) {
    const theme = await this.find(orgId, id);
    if (!theme || theme.curated) return theme;
    const members = [...this.items.values()].filter(
      (item) => item.orgId === orgId && item.themes.themeIds.includes(id),
    );
    const accepted = { ...theme, curated: true, exampleIds: members.slice(0, examples).map((item) => item.themes.id) };
    this.themes.set(id, accepted);
    return accepted;
  }
  async correct(orgId: string, itemId: string, themeId: string, assigned: boolean) {
    this.corrections.push({ orgId, itemId, themeId, assigned, at: new Date() });
  }
  async itemThemes(orgId: string, itemId: string) {
    const item = this.items.get(itemId);
    return item?.orgId === orgId ? { ...item.themes } : null;
  }
  async writeItemThemes(_orgId: string, read: ItemThemes, themeIds: string[], matches: ThemeMatch[]) {
    this.interfere?.();
    const item = this.items.get(read.id)!;
    if (item.themes.rev !== read.rev) return false;
    item.themes = { ...item.themes, themeIds, matches, rev: read.rev + 1 };
    return true;
  }
  async item(orgId: string, itemId: string) {
    const item = this.items.get(itemId);
    if (item?.orgId !== orgId) return null;
    return { id: itemId, orgId, themeIds: item.themes.themeIds, themeMatches: item.themes.matches } as FeedbackItem;
  }
}

function ports() {
  const taxonomy = new MemoryTaxonomy();
  const recomputed: string[] = [];
  const port: CuratedPorts = { taxonomy, recomputeSoon: async (orgId) => void recomputed.push(orgId) };
  return { taxonomy, recomputed, port };
}

describe('curated theme input', () => {
  test('when the input has spaces and repeats, then it is trimmed and each keyword and example kept once', () => {
    expect(
      parseThemeInput({
        label: '  Billing ',
        description: ' ',
        keywords: [' invoice', 'invoice '],
        exampleIds: ['a', 'a'],
      }),
    ).toEqual({ label: 'Billing', description: null, keywords: ['invoice'], exampleIds: ['a'], parentId: null });
  });

  test('when the input has no exampleIds, then it says none were given (an update keeps the theme’s)', () => {
    expect(parseThemeInput({ label: 'Billing' }).exampleIds).toBeNull();
    expect(parseThemeInput({ label: 'Billing', exampleIds: null }).exampleIds).toBeNull();
    expect(parseThemeInput({ label: 'Billing', exampleIds: [] }).exampleIds).toEqual([]);
  });

  test.each([
    [{ label: '   ' }, 'input.label'],
    [{ label: 'x'.repeat(101) }, 'input.label'],
    [{ label: 'ok', description: 'd'.repeat(501) }, 'input.description'],
    [{ label: 'ok', keywords: [''] }, 'input.keywords'],
    [{ label: 'ok', keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }, 'input.keywords'],
    [{ label: 'ok', exampleIds: Array.from({ length: 21 }, (_, i) => `e${i}`) }, 'input.exampleIds'],
  ])('when the input is %j, then BAD_REQUEST names %s', (input, argument) => {
    expect(() => parseThemeInput(input)).toThrow(
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_REQUEST', argument }) }),
    );
  });
});

describe('curated theme nesting', () => {
  const tree = [
    { id: 'a', parentId: null },
    { id: 'b', parentId: 'a' },
    { id: 'c', parentId: 'b' },
    { id: 'd', parentId: null },
    { id: 'e', parentId: 'd' },
  ];
  const refusal = (id: string | null, parentId: string | null) => {
    try {
      checkPlacement(tree, id, parentId);
      return null;
    } catch (error) {
      return (error as { message: string; extensions: { argument: string } }).extensions.argument;
    }
  };

  test('when a theme goes under a theme of the second level, then it is the third and allowed', () => {
    expect(refusal(null, 'b')).toBeNull();
  });
  test('when a theme would be a fourth level, then BAD_REQUEST names the parentId', () => {
    expect(refusal(null, 'c')).toBe('input.parentId');
    // d with its child e under b: d on the third level, e on a fourth.
    expect(refusal('d', 'b')).toBe('input.parentId');
  });
  test('when a theme would go under itself or a theme below it, then BAD_REQUEST names the parentId', () => {
    expect(refusal('a', 'a')).toBe('input.parentId');
    expect(refusal('a', 'c')).toBe('input.parentId');
  });
  test('when the parent is not a curated theme of the organization, then BAD_REQUEST names the parentId', () => {
    expect(refusal(null, 'elsewhere')).toBe('input.parentId');
  });
  test('when an item has a child theme, then its ids hold the child first, its parents, then the suggestions', () => {
    const parentOf = new Map(tree.map(({ id, parentId }) => [id, parentId]));
    const matches: ThemeMatch[] = [{ themeId: 'c', confidence: 1, assignedBy: 'person' }];
    expect(composeThemeIds(matches, ['s1', 'a'], parentOf)).toEqual(['c', 'b', 'a', 's1']);
  });
});

describe('curated theme use cases', () => {
  test('when a theme is created, changed and removed, then the organization is assigned again each time', async () => {
    const { port, recomputed } = ports();
    const theme = await createCuratedTheme(port, 'org1', { label: 'Billing', keywords: ['invoice'] });
    expect(theme).toMatchObject({ label: 'Billing', curated: true, keywords: ['invoice'] });
    const changed = await updateCuratedTheme(port, 'org1', theme.id, { label: 'Invoices', description: 'Bills.' });
    expect(changed).toMatchObject({ id: theme.id, label: 'Invoices', description: 'Bills.', keywords: [] });
    expect(await removeCuratedTheme(port, 'org1', theme.id)).toBe(true);
    expect(recomputed).toEqual(['org1', 'org1', 'org1']);
  });

  test('when another organization names a theme, its item or its examples, then it is NOT_FOUND or BAD_REQUEST and nothing changes', async () => {
    const { port, taxonomy } = ports();
    taxonomy.addItem('org2', 'item2');
    const theirs = await createCuratedTheme(port, 'org2', { label: 'Theirs' });
    const mine = await createCuratedTheme(port, 'org1', { label: 'Mine' });
    for (const attempt of [
      updateCuratedTheme(port, 'org1', theirs.id, { label: 'Taken' }),
      removeCuratedTheme(port, 'org1', theirs.id),
      acceptSuggestedTheme(port, 'org1', theirs.id),
      correctItemTheme(port, 'org1', 'item2', mine.id, true),
    ])
      expect((await rejection(attempt)).extensions.code).toBe('NOT_FOUND');
    const examples = await rejection(createCuratedTheme(port, 'org1', { label: 'X', exampleIds: ['item2'] }));
    expect(examples.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'input.exampleIds' });
    const parent = await rejection(createCuratedTheme(port, 'org1', { label: 'X', parentId: theirs.id }));
    expect(parent.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'input.parentId' });
    expect(taxonomy.themes.get(theirs.id)!.label).toBe('Theirs');
  });

  test('when a theme is moved under its own child, then BAD_REQUEST and the taxonomy is unchanged', async () => {
    const { port, taxonomy } = ports();
    const top = await createCuratedTheme(port, 'org1', { label: 'Top' });
    const child = await createCuratedTheme(port, 'org1', { label: 'Child', parentId: top.id });
    const error = await rejection(updateCuratedTheme(port, 'org1', top.id, { label: 'Top', parentId: child.id }));
    expect(error.extensions).toMatchObject({ code: 'BAD_REQUEST', argument: 'input.parentId' });
    expect(taxonomy.themes.get(top.id)!.parentId).toBeNull();
  });

  test('when two themes are moved under each other at once, then one move is refused and no cycle is written', async () => {
    const { port, taxonomy } = ports();
    const a = await createCuratedTheme(port, 'org1', { label: 'A' });
    const b = await createCuratedTheme(port, 'org1', { label: 'B' });
    const results = await Promise.allSettled([
      updateCuratedTheme(port, 'org1', a.id, { label: 'A', parentId: b.id }),
      updateCuratedTheme(port, 'org1', b.id, { label: 'B', parentId: a.id }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const parents = [taxonomy.themes.get(a.id)!.parentId, taxonomy.themes.get(b.id)!.parentId];
    expect(parents.filter((parent) => parent !== null)).toHaveLength(1);
  });

  test('when a suggestion is accepted, then it keeps its id and label and its items become its examples', async () => {
    const { port, taxonomy } = ports();
    taxonomy.addSuggestion('org1', 'th_s', 'Dark mode');
    taxonomy.addItem('org1', 'i1', ['th_s']);
    taxonomy.addItem('org1', 'i2', ['th_s']);
    taxonomy.addItem('org1', 'i3', []);
    const accepted = await acceptSuggestedTheme(port, 'org1', 'th_s');
    expect(accepted).toMatchObject({ id: 'th_s', label: 'Dark mode', curated: true, exampleIds: ['i1', 'i2'] });
  });

  test('when a person assigns and unassigns, then the item holds it first at once, then no longer, its parent with it', async () => {
    const { port, taxonomy } = ports();
    taxonomy.addItem('org1', 'i1', ['th_suggested']);
    const top = await createCuratedTheme(port, 'org1', { label: 'Top' });
    const child = await createCuratedTheme(port, 'org1', { label: 'Child', parentId: top.id });
    const assigned = await correctItemTheme(port, 'org1', 'i1', child.id, true);
    expect(assigned.themeIds).toEqual([child.id, top.id, 'th_suggested']);
    expect(assigned.themeMatches).toEqual([{ themeId: child.id, confidence: 1, assignedBy: 'person' }]);
    const unassigned = await correctItemTheme(port, 'org1', 'i1', child.id, false);
    expect(unassigned.themeIds).toEqual(['th_suggested']);
    expect(unassigned.themeMatches).toEqual([]);
    expect(taxonomy.corrections.map((c) => c.assigned)).toEqual([true, false]);
  });

  test('when another write of the item lands between the read and the write, then the correction is written over it', async () => {
    const { port, taxonomy } = ports();
    taxonomy.addItem('org1', 'i1');
    const theme = await createCuratedTheme(port, 'org1', { label: 'Billing' });
    let interfered = false;
    taxonomy.interfere = () => {
      if (interfered) return;
      interfered = true;
      const item = taxonomy.items.get('i1')!;
      item.themes = { ...item.themes, themeIds: ['th_new'], rev: item.themes.rev + 1 };
    };
    const item = await correctItemTheme(port, 'org1', 'i1', theme.id, true);
    expect(item.themeIds).toEqual([theme.id, 'th_new']);
  });

  test('when a suggestion is not curated, then it cannot be assigned (NOT_FOUND)', async () => {
    const { port, taxonomy } = ports();
    taxonomy.addItem('org1', 'i1');
    taxonomy.addSuggestion('org1', 'th_s', 'Dark mode');
    expect((await rejection(correctItemTheme(port, 'org1', 'i1', 'th_s', true))).extensions.code).toBe('NOT_FOUND');
  });
});

const theme = (id: string, label: string, fields: Partial<Theme> = {}): Theme => ({
  id,
  orgId: 'org1',
  label,
  keywords: [],
  summary: null,
  curated: true,
  description: null,
  parentId: null,
  exampleIds: [],
  ...fields,
});

describe('curated assignment', () => {
  const texts = [
    { id: 'b1', title: 'Invoice wrong', text: 'The invoice shows the wrong VAT number.' },
    { id: 'b2', title: 'Charged twice', text: 'We were charged twice for the same invoice this month.' },
    { id: 'b3', title: 'Receipt', text: 'I need a receipt with our company address for billing.' },
    { id: 'd1', title: 'Dark mode', text: 'Please add a dark mode, the white screen hurts at night.' },
    { id: 'd2', title: 'Dark theme', text: 'Dark mode text is grey on black and unreadable.' },
    { id: 'd3', title: '', text: 'Dark mode resets to light after every login.' },
    { id: 'x1', title: 'Gantt', text: 'Could the Gantt chart use the project colour?' },
    { id: 'n1', title: 'Invoice address', text: 'Our invoice has the old billing address on it.' },
    { id: 'n2', title: '', text: 'Is there a dark mode for the mobile app?' },
  ];
  const byId = new Map(texts.map((text) => [text.id, text]));
  const taxonomy = [
    theme('billing', 'Billing and invoices', {
      description: 'Invoices, charges and receipts.',
      exampleIds: ['b1', 'b2', 'b3'],
    }),
    theme('dark', 'Dark mode', { keywords: ['dark mode', 'dark theme'], exampleIds: ['d1', 'd2', 'd3'] }),
  ];

  test('when items are like a theme’s examples, then they get it first, and an unrelated item gets none', () => {
    const assignment = curatedAssignment(taxonomy, [], byId, texts);
    expect(assignment.matches(byId.get('n1')!)[0]?.themeId).toBe('billing');
    expect(assignment.matches(byId.get('n2')!)[0]?.themeId).toBe('dark');
    expect(assignment.matches(byId.get('x1')!)).toEqual([]);
  });

  test('when a theme’s words are in no item, then no item gets it, however many items the other themes have', () => {
    const billing = theme('billing', 'Billing', { keywords: ['invoice', 'charged', 'receipt'] });
    const assignment = curatedAssignment([billing, theme('guarded', 'Guarded')], [], byId, texts);
    expect(assignment.matches(byId.get('n1')!)[0]?.themeId).toBe('billing');
    for (const text of texts) expect(assignment.matches(text).map((m) => m.themeId)).not.toContain('guarded');
  });

  test('when most of a theme’s items say one thing, then an item that says only its keyword still gets it', () => {
    const many = [
      ...Array.from({ length: 20 }, (_, i) => ({
        id: `v${i}`,
        title: 'Invoice VAT',
        text: 'Our invoice lacks the VAT number.',
      })),
      ...Array.from({ length: 20 }, (_, i) => ({
        id: `a${i}`,
        title: 'Invoice address',
        text: 'The invoice shows our old billing address.',
      })),
      { id: 'copy', title: 'Invoice copy', text: 'Where do I download a copy of the invoice?' },
      // As many items of other subjects, as an organization has.
      ...Array.from({ length: 8 }, (_, i) =>
        texts.filter((text) => !/^(b|n1)/.test(text.id)).map((text) => ({ ...text, id: `${text.id}-${i}` })),
      ).flat(),
    ];
    const billing = theme('billing', 'Billing', { keywords: ['invoice'] });
    const assignment = curatedAssignment([billing], [], new Map(many.map((text) => [text.id, text])), many);
    expect(assignment.matches(many.find((text) => text.id === 'copy')!)[0]?.themeId).toBe('billing');
    expect(assignment.matches(byId.get('d1')!)).toEqual([]);
  });

  test('when a person corrected an item, then the correction holds over the matcher', () => {
    const corrections: Correction[] = [
      { itemId: 'n1', themeId: 'billing', assigned: false, at: new Date(1) },
      { itemId: 'x1', themeId: 'dark', assigned: true, at: new Date(2) },
    ];
    const assignment = curatedAssignment(taxonomy, corrections, byId, texts);
    expect(assignment.matches(byId.get('n1')!).map((m) => m.themeId)).not.toContain('billing');
    expect(assignment.matches(byId.get('x1')!)[0]).toEqual({ themeId: 'dark', confidence: 1, assignedBy: 'person' });
  });

  test('when a person assigns an item, then an item like it gets the theme too; when one is taken, an item like it is less sure of it', () => {
    const more = [
      ...texts,
      { id: 'g1', title: 'Gantt colours', text: 'Gantt chart bars ignore the project colour we picked.' },
      { id: 'a1', title: 'Billing address', text: 'Our old address is printed as the billing address on invoices.' },
    ];
    const all = new Map(more.map((text) => [text.id, text]));
    const charts = theme('charts', 'Timeline view', { keywords: ['timeline'] });
    const before = curatedAssignment([...taxonomy, charts], [], all, more);
    expect(before.matches(all.get('g1')!).map((m) => m.themeId)).not.toContain('charts');
    const billing = (assignment: typeof before) =>
      assignment.matches(all.get('a1')!).find((match) => match.themeId === 'billing')?.confidence ?? 0;
    expect(before.matches(all.get('a1')!)[0]?.themeId).toBe('billing');
    const corrections: Correction[] = [
      { itemId: 'x1', themeId: 'charts', assigned: true, at: new Date(1) },
      { itemId: 'n1', themeId: 'billing', assigned: false, at: new Date(2) },
    ];
    const after = curatedAssignment([...taxonomy, charts], corrections, all, more);
    expect(after.matches(all.get('g1')!)[0]).toMatchObject({ themeId: 'charts', assignedBy: 'examples' });
    expect(billing(after)).toBeLessThan(billing(before));
  });

  test('when a theme has only a label and keywords, then items saying them get it by keywords', () => {
    const matcher = themeMatcher(
      [
        {
          id: 'dark',
          label: 'Dark mode',
          description: null,
          keywords: ['dark theme'],
          examples: [],
          counterExamples: [],
        },
      ],
      texts,
    );
    expect(matcher.match(byId.get('n2')!)[0]).toMatchObject({ themeId: 'dark', assignedBy: 'keywords' });
    expect(matcher.match(byId.get('x1')!)).toEqual([]);
  });

  test('when most of a suggestion’s items have one curated theme, then it repeats it', () => {
    const assignments = new Map([
      ['b1', ['s1']],
      ['b2', ['s1']],
      ['x1', ['s1', 's2']],
    ]);
    const curated = (id: string): ThemeMatch[] =>
      id.startsWith('b') ? [{ themeId: 'billing', confidence: 0.8, assignedBy: 'examples' }] : [];
    expect([...repeatedSuggestions(assignments, curated, 0.6)]).toEqual(['s1']);
  });
});
