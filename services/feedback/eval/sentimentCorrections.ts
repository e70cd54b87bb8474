/**
 * `npx tsx services/feedback/eval/sentimentCorrections.ts`: how far a person's sentiment corrections would
 * improve an organization's other texts if each later text took the sentiment of its most similar corrected
 * text (the cosine of `similar`). Simulated on the held-out hard English sets: the first 20 wrong readings of
 * each set are corrected, the texts after them are scored before and after. Aggregates only, never a text.
 * Measured, not built (docs/intelligence.md, "How far an organization's corrections improve its own results").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceReading, type LabelledText } from './serviceFigures';
import { SimilarityIndex } from '../src/similarity/similarityIndex';

const SETS = [4, 5, 6, 7, 8, 9].map((n) => join(__dirname, `heldout-${n}`, `sentiment-hard-en-${n}.jsonl`));
const CORRECTED = 20;

for (const minScore of [0.2, 0.3, 0.5]) {
  let left = 0;
  let before = 0;
  let after = 0;
  for (const path of SETS) {
    const texts = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LabelledText);
    const corrected = new SimilarityIndex();
    const labels = new Map<string, string>();
    let read = 0;
    for (const [i, text] of texts.entries()) {
      if (labels.size >= CORRECTED) break;
      read = i + 1;
      if (serviceReading(text).sentiment === text.label) continue;
      labels.set(String(i), text.label);
      corrected.add({ id: String(i), title: text.title ?? '', content: text.content });
    }
    for (const [i, text] of texts.entries()) {
      if (i < read) continue;
      left += 1;
      const own = serviceReading(text).sentiment;
      const [nearest] = corrected.similar(
        { id: `left-${i}`, title: text.title ?? '', content: text.content },
        1,
        minScore,
      );
      if (own === text.label) before += 1;
      if ((nearest ? labels.get(nearest.id) : own) === text.label) after += 1;
    }
  }
  const pct = (n: number) => `${((n / left) * 100).toFixed(1)}%`;
  console.log(
    `${CORRECTED} corrected per set, nearest corrected text at ${minScore} or more: ${left} texts left, right ${pct(before)} -> ${pct(after)}`,
  );
}
