import { noItemVectors, type ItemVectors } from '../src/ai';
import type { Theme } from '../src/themes/data/themeModel';
import { themeProfiles } from '../src/themes/themeProfiles';

const theme = (id: string, label: string): Theme => ({
  id,
  orgId: 'org',
  label,
  keywords: [],
  summary: null,
  curated: true,
  description: null,
  parentId: null,
  exampleIds: [],
});
const TAXONOMY = [theme('a', 'Billing'), theme('b', 'Dark mode')];

/** A model whose embeddings answer when the test says (or fail), counting its requests. */
function slowModel() {
  const answers: Array<(vectors: Float32Array[] | null) => void> = [];
  const vectors: ItemVectors = {
    ...noItemVectors,
    model: 'm',
    embedTexts: (_orgId, texts) =>
      new Promise<Float32Array[] | null>((resolve) =>
        answers.push((answer) => resolve(answer && texts.map(() => Float32Array.of(1, 0)))),
      ),
  };
  const answer = async (vectors: Float32Array[] | null = []) => {
    answers.shift()!(vectors);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { vectors, answer, asked: () => answers.length };
}

describe('curated themes’ profile vectors', () => {
  test('when the model answers within the wait, then the computation gets them and is not asked to run again', async () => {
    const model = slowModel();
    const ready: string[] = [];
    const profiles = themeProfiles(model.vectors, (orgId) => ready.push(orgId), 60_000);
    const waiting = profiles.settled('org', TAXONOMY, 10_000);
    await model.answer();
    expect([...((await waiting) ?? new Map()).keys()]).toEqual(['a', 'b']);
    expect(ready).toEqual([]);
    // Kept: the next computation asks nothing.
    expect((await profiles.settled('org', TAXONOMY, 10_000))?.size).toBe(2);
    expect(model.asked()).toBe(0);
  });

  test('when the model answers after the wait, then the terms assign meanwhile and the organization is computed again', async () => {
    const model = slowModel();
    const ready: string[] = [];
    const profiles = themeProfiles(model.vectors, (orgId) => ready.push(orgId), 60_000);
    expect(await profiles.settled('org', TAXONOMY, 10)).toBeNull();
    // A computation meanwhile neither asks again nor waits for the request under way.
    const started = Date.now();
    expect(await profiles.settled('org', TAXONOMY, 10_000)).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(model.asked()).toBe(1);
    await model.answer();
    expect(ready).toEqual(['org']);
    expect((await profiles.settled('org', TAXONOMY, 10))?.size).toBe(2);
  });

  test('when the model fails, then the computation goes on by terms and asks again only after the retry time', async () => {
    const model = slowModel();
    let now = 0;
    const profiles = themeProfiles(
      model.vectors,
      () => undefined,
      1_000,
      () => now,
    );
    const waiting = profiles.settled('org', TAXONOMY, 10_000);
    await model.answer(null);
    expect(await waiting).toBeNull();
    expect(await profiles.settled('org', TAXONOMY, 10)).toBeNull();
    expect(model.asked()).toBe(0);
    now = 1_000;
    const again = profiles.settled('org', TAXONOMY, 10_000);
    expect(model.asked()).toBe(1);
    await model.answer();
    expect((await again)?.size).toBe(2);
  });
});
