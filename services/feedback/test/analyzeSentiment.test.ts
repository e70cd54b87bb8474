import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyzeSentiment } from '../src/domain/sentiment';
import { SENTIMENT_TUNING, sentimentOfScore } from '../src/domain/sentiment/analyzeSentiment';

describe('computed sentiment', () => {
  test('when a customer complains without a single negative word, then the text is negative', () => {
    expect(analyzeSentiment('Order 5521', 'I ordered on the 2nd and I am still waiting for it to arrive.').sentiment).toBe('negative');
    expect(analyzeSentiment('Billing', 'You charged us twice for May, please send the money back.').sentiment).toBe('negative');
    expect(analyzeSentiment('Login', "I can't log in on the mobile app since this morning.").sentiment).toBe('negative');
  });

  test('when praise surrounds a problem (sarcasm), then the problem wins', () => {
    expect(analyzeSentiment('Dashboard', 'Oh great, the dashboard crashed again during the demo.').sentiment).toBe('negative');
  });

  test('when a problem is denied or solved, then it counts as praise', () => {
    expect(analyzeSentiment('Three months in', 'No crashes, no hiccups, and the team is lovely.').sentiment).toBe('positive');
    expect(analyzeSentiment('Thanks', 'You fixed the sync problem within a day, thank you!').sentiment).toBe('positive');
  });

  test('when a text asks or proposes, then it is neutral', () => {
    expect(analyzeSentiment('Question', 'Does the importer accept files with a semicolon separator?').sentiment).toBe('neutral');
    expect(analyzeSentiment('Idea', 'Please add a filter for the author of an item.').sentiment).toBe('neutral');
  });

  test('when any text is scored, then the score lies in -1..1 and agrees with the sentiment', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 300 }), (title, content) => {
        const { sentiment, score } = analyzeSentiment(title, content);
        expect(score).toBeGreaterThanOrEqual(-1);
        expect(score).toBeLessThanOrEqual(1);
        expect(sentiment).toBe(sentimentOfScore(score));
      }),
      { numRuns: 200 },
    );
    expect(analyzeSentiment('Awful', 'Terrible, horrible, broken, useless, a waste of money. I want a refund!').score).toBeLessThan(SENTIMENT_TUNING.negativeAtMost);
  });

  test('when the evaluation set is scored, then the reporting half keeps the accuracy measured when the rule was chosen', () => {
    const report = readFileSync(join(__dirname, '../eval/sentiment-eval.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { split: string; label: string; title: string; content: string })
      .filter((example) => example.split === 'report');
    const predicted = report.map((example) => analyzeSentiment(example.title, example.content).sentiment);
    const accuracy = predicted.filter((sentiment, i) => sentiment === report[i].label).length / report.length;
    const negatives = report.map((example, i) => [example.label, predicted[i]]).filter(([label]) => label === 'negative');
    const negativeRecall = negatives.filter(([, sentiment]) => sentiment === 'negative').length / negatives.length;
    // The figures of the README (82.4% and 81.8%); a change to the rule must not make them worse.
    expect(accuracy).toBeGreaterThanOrEqual(0.82);
    expect(negativeRecall).toBeGreaterThanOrEqual(0.81);
  });
});
