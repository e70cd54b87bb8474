/**
 * npm run eval:sentiment: compares the candidate libraries and the service's rule on the evaluation set.
 * Every method gets its thresholds (and the rule its tuning) from the `tune` half only; accuracy, negative
 * recall and the confusion matrix are reported on the `report` half. The candidates other than wink-nlp
 * are not dependencies of the service: they install from `candidates/package-lock.json` on first run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  combineSentences,
  readSentences,
  SENTIMENT_TUNING,
  type Sentiment,
  type SentenceReading,
  type SentimentTuning,
} from '../src/domain/sentiment/analyzeSentiment';
import { sentimentNlp } from '../src/domain/sentiment/englishNlp';

interface Example {
  id: number;
  split: 'tune' | 'report';
  label: Sentiment;
  title: string;
  content: string;
}

const LABELS: Sentiment[] = ['negative', 'neutral', 'positive'];
const NEGATIVE_RECALL_TARGET = 0.85;

const examples: Example[] = readFileSync(join(__dirname, 'sentiment-eval.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Example);
const tune = examples.filter((example) => example.split === 'tune');
const report = examples.filter((example) => example.split === 'report');
const fullText = (example: Example) => `${example.title}. ${example.content}`;

interface Thresholds {
  negativeAtMost: number;
  positiveAtLeast: number;
}

interface Outcome {
  accuracy: number;
  negativeRecall: number;
  /** confusion[actual][predicted] */
  confusion: Record<Sentiment, Record<Sentiment, number>>;
}

const classify = (score: number, t: Thresholds): Sentiment =>
  score <= t.negativeAtMost ? 'negative' : score >= t.positiveAtLeast ? 'positive' : 'neutral';

function outcome(set: Example[], scores: number[], t: Thresholds): Outcome {
  const confusion = Object.fromEntries(LABELS.map((l) => [l, Object.fromEntries(LABELS.map((p) => [p, 0]))])) as Outcome['confusion'];
  set.forEach((example, i) => (confusion[example.label][classify(scores[i], t)] += 1));
  const correct = LABELS.reduce((sum, l) => sum + confusion[l][l], 0);
  const negatives = LABELS.reduce((sum, p) => sum + confusion.negative[p], 0);
  return { accuracy: correct / set.length, negativeRecall: confusion.negative.negative / negatives, confusion };
}

/** Errors, where a missed negative counts twice: missing an angry customer costs the most. */
const cost = (o: Outcome) =>
  LABELS.reduce((sum, l) => sum + LABELS.reduce((s, p) => s + (p === l ? 0 : o.confusion[l][p] * (l === 'negative' ? 2 : 1)), 0), 0);

type Objective = 'recall target first' | 'accuracy only';

/** Better: meets the negative-recall target, then lower cost, then higher accuracy; or accuracy alone. */
function better(a: Outcome, b: Outcome | undefined, objective: Objective = 'recall target first'): boolean {
  if (!b) return true;
  if (objective === 'accuracy only') return a.accuracy > b.accuracy || (a.accuracy === b.accuracy && a.negativeRecall > b.negativeRecall);
  const aMeets = a.negativeRecall >= NEGATIVE_RECALL_TARGET;
  const bMeets = b.negativeRecall >= NEGATIVE_RECALL_TARGET;
  if (aMeets !== bMeets) return aMeets;
  if (cost(a) !== cost(b)) return cost(a) < cost(b);
  return a.accuracy > b.accuracy;
}

const sameOutcome = (a: Outcome, b: Outcome) => a.accuracy === b.accuracy && a.negativeRecall === b.negativeRecall;

/**
 * Thresholds halfway between neighbouring tune-half scores, searched exhaustively. Many pairs usually tie
 * for best; taking the median of the tied cuts keeps the thresholds away from the tune half's own
 * borderline texts, which generalises better than the first or last pair that ties.
 */
function chooseThresholds(scores: number[], objective?: Objective): { thresholds: Thresholds; tuned: Outcome } {
  const values = [...new Set(scores)].sort((a, b) => a - b);
  const cuts = [values[0] - 1, ...values.slice(1).map((v, i) => (v + values[i]) / 2), values[values.length - 1] + 1];
  const at = (i: number, j: number) => ({ negativeAtMost: cuts[i], positiveAtLeast: cuts[j] });
  let best: Outcome | undefined;
  let ties: Array<[number, number]> = [];
  for (let i = 0; i < cuts.length; i++) {
    for (let j = i; j < cuts.length; j++) {
      // Cuts lie between scores, so no score equals one and <= and >= behave like < and >.
      const tuned = outcome(tune, scores, at(i, j));
      if (best && sameOutcome(tuned, best)) ties.push([i, j]);
      else if (better(tuned, best, objective)) [best, ties] = [tuned, [[i, j]]];
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const i = median(ties.map(([lo]) => lo));
  const j = Math.max(i, median(ties.map(([, hi]) => hi)));
  return { thresholds: at(i, j), tuned: outcome(tune, scores, at(i, j)) };
}

interface Method {
  name: string;
  score: (example: Example) => number;
}

function candidateMethods(): Method[] {
  const dir = join(__dirname, 'candidates');
  if (!existsSync(join(dir, 'node_modules'))) {
    console.error('Installing the candidate libraries into services/feedback/eval/candidates (npm ci) ...');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', dir], { stdio: 'inherit' });
  }
  const load = createRequire(join(dir, 'package.json'));
  const Afinn = load('sentiment');
  const afinn = new Afinn();
  const vader = load('vader-sentiment');
  // natural loads dotenv, which announces itself on stdout unless told to be quiet.
  process.env.DOTENV_CONFIG_QUIET = 'true';
  const natural = load('natural');
  const naturalAnalyzer = new natural.SentimentAnalyzer('English', natural.PorterStemmer, 'afinn');
  const tokenizer = new natural.WordTokenizer();
  return [
    { name: 'sentiment (AFINN-165), comparative score', score: (e) => afinn.analyze(fullText(e)).comparative },
    { name: 'vader-sentiment, compound score', score: (e) => vader.SentimentIntensityAnalyzer.polarity_scores(fullText(e)).compound },
    { name: 'natural SentimentAnalyzer (AFINN, Porter stems)', score: (e) => naturalAnalyzer.getSentiment(tokenizer.tokenize(fullText(e))) },
  ];
}

const winkAlone: Method = {
  name: 'wink-nlp + wink-eng-lite-web-model, document score',
  score: (e) => sentimentNlp.readDoc(fullText(e)).out(sentimentNlp.its.sentiment) as number,
};

/** Tuning grid for the service's rule: every combination is tried on the tune half. */
function tuningGrid(): Array<Omit<SentimentTuning, keyof Thresholds>> {
  const grid = [];
  for (const problemWeight of [0.2, 0.3, 0.4, 0.5, 0.6])
    for (const reliefWeight of [0.2, 0.4, 0.6])
      for (const requestDamping of [0, 0.3, 0.6, 1])
        for (const praiseBesideProblem of [0, 0.5, 1])
          for (const worstPull of [0, 0.25, 0.5, 0.75, 1]) grid.push({ problemWeight, reliefWeight, requestDamping, praiseBesideProblem, worstPull });
  return grid;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const matrix = (c: Outcome['confusion']) => LABELS.map((l) => LABELS.map((p) => c[l][p]).join('/')).join(' · ');

interface Row {
  name: string;
  thresholds: Thresholds;
  tuned: Outcome;
  reported: Outcome;
}

function evaluate(method: Method, objective: Objective): Row {
  const tuneScores = tune.map(method.score);
  const { thresholds, tuned } = chooseThresholds(tuneScores, objective);
  return { name: `${method.name} (${objective})`, thresholds, tuned, reported: outcome(report, report.map(method.score), thresholds) };
}

function evaluateRule(): { row: Row; chosen: SentimentTuning } {
  const tuneReadings = new Map<number, SentenceReading[]>(examples.map((e) => [e.id, readSentences(e.title, e.content)]));
  let best: { tuning: SentimentTuning; tuned: Outcome } | undefined;
  for (const knobs of tuningGrid()) {
    const { thresholds, tuned } = chooseThresholds(tune.map((e) => combineSentences(tuneReadings.get(e.id)!, { ...knobs, negativeAtMost: 0, positiveAtLeast: 0 })));
    if (better(tuned, best?.tuned)) best = { tuning: { ...knobs, ...thresholds }, tuned };
  }
  const shipped = SENTIMENT_TUNING;
  const score = (e: Example) => combineSentences(tuneReadings.get(e.id)!, shipped);
  return {
    chosen: best!.tuning,
    row: {
      name: 'the service: wink-nlp + feedback cues (SENTIMENT_TUNING)',
      thresholds: shipped,
      tuned: outcome(tune, tune.map(score), shipped),
      reported: outcome(report, report.map(score), shipped),
    },
  };
}

function main(): void {
  const methods = [...candidateMethods(), winkAlone];
  const rows = (['accuracy only', 'recall target first'] as const).flatMap((objective) => methods.map((method) => evaluate(method, objective)));
  const rule = evaluateRule();
  rows.push(rule.row);
  console.log(`Evaluation set: ${tune.length} texts to tune, ${report.length} to report (services/feedback/eval).`);
  console.log('Thresholds and tuning chosen on the tune half (for the highest accuracy, or for the highest accuracy with negative recall at least 85% and a missed negative counting as two errors); figures on the report half.\n');
  console.log('| Method | Thresholds (negative ≤, positive ≥) | Tune accuracy | Report accuracy | Report negative recall | Report confusion (rows actual neg/neu/pos, columns predicted neg/neu/pos) |');
  console.log('|---|---|---:|---:|---:|---|');
  for (const row of rows) {
    const t = `${row.thresholds.negativeAtMost.toFixed(3)}, ${row.thresholds.positiveAtLeast.toFixed(3)}`;
    console.log(`| ${row.name} | ${t} | ${pct(row.tuned.accuracy)} | ${pct(row.reported.accuracy)} | ${pct(row.reported.negativeRecall)} | ${matrix(row.reported.confusion)} |`);
  }
  console.log('\nBest tuning on the tune half:', JSON.stringify(rule.chosen));
  const drift = (Object.keys(rule.chosen) as Array<keyof SentimentTuning>).filter((k) => Math.abs(rule.chosen[k] - SENTIMENT_TUNING[k]) > 0.02);
  console.log(drift.length === 0 ? 'SENTIMENT_TUNING matches it.' : `SENTIMENT_TUNING differs in: ${drift.join(', ')} (update it from the line above).`);
}

main();
