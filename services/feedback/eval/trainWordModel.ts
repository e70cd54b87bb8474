/**
 * npm run eval:train-words: trains the word model of the English sentiment (src/core/domain/sentiment/wordModel.ts)
 * on the tuning data only (the first set, the independent set's tune half, the hard English set's tune
 * half, the development sets' tune parts and, since the sixth round, the third held-out set; never a report half
 * or a check part) and writes wordModel.json.
 * `-- --cv` prints 5-fold cross-validated figures of the model alone on the hard English tune half instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSentences } from '../src/core/domain/sentiment/analyzeSentiment';
import { wordProbabilities, type WordModel } from '../src/core/domain/sentiment/wordModel';

interface Example {
  split: string;
  label: 'negative' | 'neutral' | 'positive';
  title?: string;
  content: string;
}

const readSet = (file: string): Example[] =>
  readFileSync(join(__dirname, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Example);

export const TRAINING_SETS = {
  first: readSet('sentiment-eval.jsonl'),
  independentTune: readSet('sentiment-eval-independent.jsonl').filter((e) => e.split === 'tune'),
  hardTune: readSet('intelligence/sentiment-hard-en.jsonl').filter((e) => e.split === 'tune'),
  development: readSet('sentiment-dev-en.jsonl').filter((e) => e.split === 'tune'),
  fourthRound: readSet('sentiment-dev2-en.jsonl').filter((e) => e.split === 'tune'),
  fourthRoundMore: readSet('sentiment-dev3-en.jsonl'),
  thirdHeldOut: readSet('heldout-3/sentiment-hard-en-3.jsonl'),
};

const CLASS = { negative: 0, neutral: 1, positive: 2 } as const;
/** L2 penalty, learning rate and passes: chosen by the cross-validation below, on tuning data only. */
const L2 = 0.01;
const RATE = 0.5;
const EPOCHS = 300;
/** A feature seen in fewer texts carries no weight (it would only memorise its text). */
const MIN_TEXTS = 2;

const featuresOf = (e: Example) => readSentences(e.title ?? '', e.content).words;

/** Full-batch gradient descent of a multinomial logistic regression; features are present or absent. */
export function train(texts: string[][], labels: number[], l2 = L2): WordModel {
  const counts = new Map<string, number>();
  for (const features of texts) for (const f of features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const kept = [...counts].filter(([, n]) => n >= MIN_TEXTS).map(([f]) => f);
  const index = new Map(kept.map((f, i) => [f, i]));
  const rows = texts.map((features) => features.map((f) => index.get(f)).filter((i): i is number => i !== undefined));
  const w = new Float64Array(kept.length * 3);
  const bias = [0, 0, 0];
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const grad = new Float64Array(w.length);
    const gradBias = [0, 0, 0];
    rows.forEach((row, t) => {
      const logits = [...bias];
      for (const i of row) for (let k = 0; k < 3; k++) logits[k] += w[i * 3 + k];
      const top = Math.max(...logits);
      const exp = logits.map((l) => Math.exp(l - top));
      const sum = exp[0] + exp[1] + exp[2];
      for (let k = 0; k < 3; k++) {
        const error = exp[k] / sum - (labels[t] === k ? 1 : 0);
        gradBias[k] += error;
        for (const i of row) grad[i * 3 + k] += error;
      }
    });
    for (let j = 0; j < w.length; j++) w[j] -= RATE * (grad[j] / rows.length + l2 * w[j]);
    for (let k = 0; k < 3; k++) bias[k] -= (RATE * gradBias[k]) / rows.length;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const features: WordModel['features'] = {};
  kept.forEach((f, i) => {
    const v: [number, number, number] = [round(w[i * 3]), round(w[i * 3 + 1]), round(w[i * 3 + 2])];
    // Weights this small change no decision; leaving them out keeps the file small.
    if (Math.max(...v.map(Math.abs)) >= 0.02) features[f] = v;
  });
  return { features, bias: bias.map(round) as [number, number, number] };
}

const argmax = (p: number[]) => p.indexOf(Math.max(...p));

function crossValidate(): void {
  const others = [
    ...TRAINING_SETS.first,
    ...TRAINING_SETS.independentTune,
    ...TRAINING_SETS.development,
    ...TRAINING_SETS.fourthRound,
    ...TRAINING_SETS.fourthRoundMore,
  ];
  const hard = TRAINING_SETS.hardTune;
  const otherFeatures = others.map(featuresOf);
  const hardFeatures = hard.map(featuresOf);
  for (const l2 of [0.003, 0.01, 0.03]) {
    let right = 0;
    for (let fold = 0; fold < 5; fold++) {
      const trainIdx = hard.map((_, i) => i).filter((i) => i % 5 !== fold);
      const model = train(
        [...otherFeatures, ...trainIdx.map((i) => hardFeatures[i])],
        [...others.map((e) => CLASS[e.label]), ...trainIdx.map((i) => CLASS[hard[i].label])],
        l2,
      );
      hard.forEach((e, i) => {
        if (i % 5 === fold && argmax(wordProbabilities(hardFeatures[i], model)) === CLASS[e.label]) right += 1;
      });
    }
    console.log(
      `L2 ${l2}: the word model alone, 5-fold on the hard English tune half: ${((100 * right) / hard.length).toFixed(1)}%`,
    );
  }
}

function main(): void {
  if (process.argv.includes('--cv')) return crossValidate();
  const all = Object.values(TRAINING_SETS).flat();
  const model = train(
    all.map(featuresOf),
    all.map((e) => CLASS[e.label]),
  );
  const file = join(__dirname, '../src/core/domain/sentiment/wordModel.json');
  writeFileSync(file, `${JSON.stringify(model)}\n`);
  console.log(`${Object.keys(model.features).length} features from ${all.length} tuning texts written to ${file}`);
}

if (require.main === module) main();
