import { SimilarityIndex } from '../src/similarity/similarityIndex';

const ITEMS = [
  {
    id: 'receipt',
    title: 'Receipt never came',
    content: 'We paid for the yearly plan and no receipt arrived by email.',
  },
  {
    id: 'restated',
    title: 'No proof of purchase',
    content: 'After the annual payment nobody mailed us a confirmation of payment.',
  },
  { id: 'price', title: 'Price went up', content: 'Our monthly price rose from 90 to 140 without notice.' },
  { id: 'accents', title: 'Search fails with accents', content: 'Looking for names such as "Müller" finds nothing.' },
  {
    id: 'umlauts',
    title: 'Umlauts break lookup',
    content: 'A German name with an umlaut gets no hits in the search field.',
  },
  { id: 'filters', title: 'Search filters', content: 'Please add filters by assignee to the search results.' },
  { id: 'gantt', title: 'Gantt colours', content: 'Let the Gantt bars use the project colour.' },
];

describe('similar items', () => {
  const index = new SimilarityIndex();
  for (const item of ITEMS) index.add(item);
  const first = (id: string) =>
    index.similar(
      ITEMS.find((item) => item.id === id)!,
      1,
      0,
    )[0]?.id;

  test('when another customer tells the same problem in other words, then that item is the most similar', () => {
    expect(first('restated')).toBe('receipt');
    expect(first('umlauts')).toBe('accents');
  });

  test('when items share nothing, then none is proposed', () => {
    expect(
      index.similar(
        ITEMS.find((item) => item.id === 'gantt')!,
        3,
        0.12,
      ),
    ).toEqual([]);
  });
});
