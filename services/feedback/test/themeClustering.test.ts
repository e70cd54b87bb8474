import { computeThemes, type PreviousTheme } from '../src/themes';

const TEXTS = [
  'CSV export stops after 1,000 rows',
  'The CSV export garbles accents in Excel',
  'Can the CSV export include custom fields?',
  'A CSV export of all projects takes ten minutes',
  'Please add a dark mode for late shifts',
  'In dark mode the grey text is unreadable',
  'Dark mode goes back to light after every login',
  'The dark mode looks fantastic',
  'Could the Gantt chart use the project colour?',
];
const items = TEXTS.map((text, i) => ({ id: `i${i}`, text }));
const counter = () => {
  let n = 0;
  return () => `th${(n += 1)}`;
};

describe('theme computation', () => {
  test('when items share specific phrases, then each group is one theme named by its phrase and singles have none', () => {
    const { themes, assignments } = computeThemes(items, [], counter());
    expect(themes.map((theme) => theme.label).sort()).toEqual(['CSV export', 'Dark mode']);
    const csv = themes.find((theme) => theme.label === 'CSV export')!.id;
    expect([0, 1, 2, 3].map((i) => assignments.get(`i${i}`)?.[0])).toEqual([csv, csv, csv, csv]);
    expect(assignments.has('i8')).toBe(false);
  });

  test('when the same items are computed twice, then the result is the same', () => {
    expect(computeThemes(items, [], counter())).toEqual(computeThemes(items, [], counter()));
  });

  test('when a theme persists, then it keeps its id, and a renamed label survives new items', () => {
    const first = computeThemes(items, [], counter());
    const previous: PreviousTheme[] = first.themes.map((theme) => ({
      ...theme,
      label: theme.label === 'Dark mode' ? 'Night theme' : theme.label,
      renamed: theme.label === 'Dark mode',
      members: [...first.assignments].filter(([, ids]) => ids.includes(theme.id)).map(([id]) => id),
    }));
    const more = [
      ...items,
      { id: 'i9', text: 'Dark mode resets when I switch workspace' },
      { id: 'i10', text: 'CSV export drops the header row' },
    ];
    const second = computeThemes(more, previous, () => 'fresh');
    expect(second.themes.map((theme) => theme.id).sort()).toEqual(first.themes.map((theme) => theme.id).sort());
    const dark = second.themes.find((theme) => theme.id === first.themes.find((t) => t.label === 'Dark mode')!.id)!;
    expect(dark).toMatchObject({ label: 'Night theme', renamed: true });
    expect(second.assignments.get('i9')).toEqual([dark.id]);
  });

  test('when a person merged a theme into another, then it joins it, and so does the part a later computation splits off it', () => {
    const first = computeThemes(items, [], counter());
    const csv = first.themes.find((theme) => theme.label === 'CSV export')!;
    const dark = first.themes.find((theme) => theme.label === 'Dark mode')!;
    const membersOf = (result: typeof first, id: string) =>
      [...result.assignments].filter(([, ids]) => ids.includes(id)).map(([item]) => item);
    const previous = (result: typeof first): PreviousTheme[] =>
      result.themes.map((theme) => ({ ...theme, members: membersOf(result, theme.id) }));
    const withMerge = previous(first).map((theme) => (theme.id === dark.id ? { ...theme, mergedInto: csv.id } : theme));
    const second = computeThemes(items, withMerge, counter());
    expect(second.themes.map((theme) => theme.id)).toEqual([csv.id]);
    expect([4, 5, 6, 7].map((i) => second.assignments.get(`i${i}`))).toEqual([[csv.id], [csv.id], [csv.id], [csv.id]]);
    // The merged theme has no items left; its split-off part is a new theme most of whose items the target holds.
    const more = [...items, { id: 'i9', text: 'Dark mode should follow the system setting' }];
    const mergedAway: PreviousTheme = { ...dark, members: [], mergedInto: csv.id };
    const third = computeThemes(more, [...previous(second), mergedAway], counter());
    expect(third.themes.map((theme) => theme.id)).toEqual([csv.id]);
    expect(membersOf(third, csv.id).sort()).toEqual(['i0', 'i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7', 'i9']);
    // Without the merge, the same items are two themes again.
    expect(computeThemes(more, previous(second), counter()).themes).toHaveLength(2);
  });

  test('when items name one subject in different words, then they are one theme', () => {
    const billing = [
      'We were charged twice for the annual plan',
      'The invoice shows the wrong company address',
      'No receipt after paying by card',
      'Please send the invoice as PDF',
      'Our payment failed although the bank says it went through',
      'Billing page lists the old price',
    ];
    const mobile = [
      'The iPhone app crashes at launch',
      'Android app closes when I open a photo',
      'Tablet app freezes on the board view',
      'Mobile app keeps crashing after the update',
    ];
    const texts = [...billing, ...mobile, 'Gantt bars cannot be dragged', 'Add keyboard shortcuts for the editor'];
    const { assignments } = computeThemes(
      texts.map((text, i) => ({ id: `m${i}`, text })),
      [],
      counter(),
    );
    const first = (from: number, count: number) =>
      new Set(texts.slice(from, from + count).map((_, i) => assignments.get(`m${from + i}`)?.[0]));
    const [billingThemes, mobileThemes] = [first(0, billing.length), first(billing.length, mobile.length)];
    expect(billingThemes.size).toBe(1);
    expect(mobileThemes.size).toBe(1);
    expect(billingThemes).not.toContain(undefined);
    expect(mobileThemes).not.toContain(undefined);
    expect([...billingThemes][0]).not.toBe([...mobileThemes][0]);
  });

  test('when a word runs through every area of the product, then it founds no theme of its own', () => {
    const areas = ['Slack', 'Email', 'Export', 'Webhook', 'Calendar'];
    const problems = [
      'stopped working',
      'is slow',
      'shows an error',
      'fails',
      'is broken',
      'crashes',
      'loads forever',
      'is wrong',
    ];
    // As "ticket" in a help desk's feedback: in some items of most areas, and in a few of nothing in particular.
    const texts = areas.flatMap((area, a) =>
      problems.map((problem, p) => `${area} ${problem}${a < 4 && p < 3 ? ' on every ticket' : ''}`),
    );
    const singles = [
      'Gantt colours',
      'Keyboard shortcuts',
      'Bigger fonts',
      'Printing cuts pages',
      'Emoji reactions',
      'Undo archive',
      'Markdown tables',
      'Referral discount',
    ];
    texts.push(
      ...singles.map((single, i) => `${single}${i < 3 ? ' for each ticket' : ''}`),
      ...Array.from({ length: 14 }, (_, i) => `Unrelated wish number ${'abcdefghijklmn'[i]}${i}`),
    );
    const { themes, assignments } = computeThemes(
      texts.map((text, i) => ({ id: `a${i}`, text })),
      [],
      counter(),
    );
    expect(themes.map((theme) => theme.label.toLowerCase())).not.toContain('ticket');
    areas.forEach((_, a) => {
      const found = new Set(problems.map((_, p) => assignments.get(`a${a * problems.length + p}`)?.[0]));
      expect(found.size).toBe(1);
      expect(found).not.toContain(undefined);
    });
  });

  test('when an item names a theme in its title and mentions another in passing, then it is only in the one its title names', () => {
    const titled = [
      ...TEXTS.slice(0, 8).map((text, i) => ({ id: `i${i}`, title: text, text: 'Seen by several of us this week.' })),
      {
        id: 'x',
        title: 'Dark mode hides the toolbar icons',
        text: 'We found it while checking a CSV export late at night.',
      },
      { id: 'y', title: 'Keyboard shortcut for the sidebar', text: 'Like the one the CSV export has.' },
    ];
    const { themes, assignments } = computeThemes(titled, [], counter());
    const dark = themes.find((theme) => theme.label === 'Dark mode')!.id;
    expect(assignments.get('x')).toEqual([dark]);
    expect(assignments.get('y')).toEqual([themes.find((theme) => theme.label === 'CSV export')!.id]);
  });

  test('when most of a theme says its word with the same other word in either order, then that phrase names it', () => {
    const texts = [
      'Email notifications arrive a day late',
      'Email notifications go to spam',
      'Too many notification emails every morning',
      'Notification emails have no unsubscribe link',
      'The email digest is empty',
      'Email replies are not threaded',
    ];
    const { themes } = computeThemes(
      texts.map((text, i) => ({ id: `e${i}`, text })),
      [],
      counter(),
    );
    expect(themes.map((theme) => theme.label)).toEqual(['Email notifications']);
  });
});
