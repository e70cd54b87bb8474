import type { ItemToken } from 'wink-nlp';
import { sentimentNlp } from './englishNlp';
import weights from './wordModel.json';

/**
 * A learned reading of the words, beside the phrase cues: phrase patterns miss every wording they do not
 * list ("bumped us up to Pro", "yours is on the shortlist to go"), while the words of a kind of feedback
 * recur across wordings ("migrate", "budget", "shortlist", "tier"). A three-class logistic regression on
 * word stems and pairs of neighbouring stems (a stem in the scope of a negation is its own feature),
 * trained on the tuning halves of the evaluation sets only (`npm run eval:train-words`, which writes
 * `wordModel.json`). Scoring is a few map lookups per word.
 */

const its = sentimentNlp.its;
// wink-nlp's typings declare `its.stem` with the model's add-ons as a parameter, which `out` does not accept; it runs as any other.
const stemOf = its.stem as unknown as typeof its.normal;

interface WordModel {
  /** Per feature: weights for negative, neutral, positive. */
  features: Record<string, [number, number, number]>;
  bias: [number, number, number];
}

const MODEL = weights as unknown as WordModel;

/** Stems of the words of a text read by wink-nlp (negated ones marked "not:"), and their neighbouring pairs. */
export function wordFeatures(tokens: ItemToken[]): string[] {
  const stems: string[] = [];
  for (const token of tokens) {
    if (token.out(its.type) !== 'word') continue;
    const stem = (token.out(stemOf) as string).toLowerCase();
    stems.push(token.out(its.negationFlag) ? `not:${stem}` : stem);
  }
  const features = new Set(stems);
  for (let i = 0; i + 1 < stems.length; i++) features.add(`${stems[i]} ${stems[i + 1]}`);
  return [...features];
}

/** The model's probabilities of negative, neutral and positive for these features. */
export function wordProbabilities(features: string[], model: WordModel = MODEL): [number, number, number] {
  const logits: [number, number, number] = [...model.bias];
  for (const feature of features) {
    const w = model.features[feature];
    if (w) for (let k = 0; k < 3; k++) logits[k] += w[k];
  }
  const top = Math.max(...logits);
  const exp = logits.map((l) => Math.exp(l - top));
  const sum = exp[0] + exp[1] + exp[2];
  return [exp[0] / sum, exp[1] / sum, exp[2] / sum];
}

/** -1 (surely negative) to 1 (surely positive): P(positive) - P(negative). */
export function wordScore(features: string[], model: WordModel = MODEL): number {
  const [negative, , positive] = wordProbabilities(features, model);
  return positive - negative;
}

export type { WordModel };
