import { computeThemes, type PreviousTheme } from '../src/themes/themeClustering';

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
    const more = [...items, { id: 'i9', text: 'Dark mode resets when I switch workspace' }, { id: 'i10', text: 'CSV export drops the header row' }];
    const second = computeThemes(more, previous, () => 'fresh');
    expect(second.themes.map((theme) => theme.id).sort()).toEqual(first.themes.map((theme) => theme.id).sort());
    const dark = second.themes.find((theme) => theme.id === first.themes.find((t) => t.label === 'Dark mode')!.id)!;
    expect(dark).toMatchObject({ label: 'Night theme', renamed: true });
    expect(second.assignments.get('i9')).toEqual([dark.id]);
  });
});
