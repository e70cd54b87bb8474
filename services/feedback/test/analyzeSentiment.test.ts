import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyzeSentiment } from '../src/core/domain/sentiment';
import { SENTIMENT_TUNING, sentimentOfScore } from '../src/core/domain/sentiment/analyzeSentiment';
import { normalizeSentence, sentenceCues } from '../src/core/domain/sentiment/feedbackCues';

describe('computed sentiment', () => {
  test('when a customer complains without a single negative word, then the text is negative', () => {
    expect(
      analyzeSentiment('Order 5521', 'I ordered on the 2nd and I am still waiting for it to arrive.').sentiment,
    ).toBe('negative');
    expect(analyzeSentiment('Billing', 'You charged us twice for May, please send the money back.').sentiment).toBe(
      'negative',
    );
    expect(analyzeSentiment('Login', "I can't log in on the mobile app since this morning.").sentiment).toBe(
      'negative',
    );
  });

  test('when praise surrounds a problem (sarcasm), then the problem wins', () => {
    expect(analyzeSentiment('Dashboard', 'Oh great, the dashboard crashed again during the demo.').sentiment).toBe(
      'negative',
    );
  });

  test('when a problem is denied or solved, then it counts as praise', () => {
    expect(analyzeSentiment('Three months in', 'No crashes, no hiccups, and the team is lovely.').sentiment).toBe(
      'positive',
    );
    expect(analyzeSentiment('Thanks', 'You fixed the sync problem within a day, thank you!').sentiment).toBe(
      'positive',
    );
  });

  test('when a text asks or proposes, then it is neutral', () => {
    expect(analyzeSentiment('Question', 'Does the importer accept files with a semicolon separator?').sentiment).toBe(
      'neutral',
    );
    expect(analyzeSentiment('Idea', 'Please add a filter for the author of an item.').sentiment).toBe('neutral');
  });

  test('when a failure verb is inflected, then it is still a failure', () => {
    expect(analyzeSentiment('Invoices', 'Your invoice emails stopped arriving last week.').sentiment).toBe('negative');
  });

  test('when praise is in scare quotes, then the praise of the whole text is ironic', () => {
    // The cues read the irony; the word model (which reads "love", "improved") now holds the text at neutral,
    // a known regression of the word model (services/feedback/eval/ROUNDS.md, third round).
    expect(sentenceCues(normalizeSentence('Now I can lose my "improved" work twice as fast.')).sarcasm).toBe(true);
    expect(
      analyzeSentiment('Nice', 'Love the "improved" editor. Now I can lose my work twice as fast.').sentiment,
    ).not.toBe('positive');
  });

  test('when a question or a wish carries the complaint, then it is negative', () => {
    expect(analyzeSentiment('Sync', "Why does the calendar still show yesterday's meetings?").sentiment).toBe(
      'negative',
    );
    expect(
      analyzeSentiment('Reports', 'It would be great if the reports did not time out every morning.').sentiment,
    ).toBe('negative');
  });

  test('when praise is said through a negation, then it stays praise', () => {
    // The denial is read as praise; the word model holds this one at neutral (a known regression,
    // services/feedback/eval/ROUNDS.md, third round).
    expect(sentenceCues(normalizeSentence("Can't fault it, and the staff couldn't have been nicer.")).denial).toBe(
      true,
    );
    expect(analyzeSentiment('Honest', "Can't fault it, and the staff couldn't have been nicer.").sentiment).not.toBe(
      'negative',
    );
    expect(analyzeSentiment('Honest', 'Could not be happier with the new plan, the team is brilliant.').sentiment).toBe(
      'positive',
    );
  });

  test('when a text calls the product merely fine or names a problem as a topic, then it is neutral', () => {
    expect(analyzeSentiment('Meh', "It's fine.").sentiment).toBe('neutral');
    expect(analyzeSentiment('Question', 'Do you keep the error logs of failed imports?').sentiment).toBe('neutral');
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
    expect(
      analyzeSentiment('Awful', 'Terrible, horrible, broken, useless, a waste of money. I want a refund!').score,
    ).toBeLessThan(SENTIMENT_TUNING.negativeAtMost);
  });

  test('when the independent evaluation set is scored, then its report half keeps the figures measured when the rule was frozen', () => {
    // A guard against regressions, not a target to tune on: the report half must not drive changes to the rule.
    const report = readFileSync(join(__dirname, '../eval/sentiment-eval-independent.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { split: string; label: string; title: string; content: string })
      .filter((example) => example.split === 'report');
    const predicted = report.map((example) => analyzeSentiment(example.title, example.content).sentiment);
    const correct = predicted.filter((sentiment, i) => sentiment === report[i].label).length;
    const caught = predicted.filter(
      (sentiment, i) => report[i].label === 'negative' && sentiment === 'negative',
    ).length;
    // services/feedback/eval/ROUNDS.md: 167 of 190 right (87.9%) when first frozen; 164 (86.3%) since the cues
    // for the hard English set, frozen in turn; 163 (85.8%) since the word model; 61 of 71 negatives caught
    // (85.9%), then 60 (84.5%), then 66 (93.0%).
    expect(report).toHaveLength(190);
    expect(correct).toBeGreaterThanOrEqual(163);
    expect(caught).toBeGreaterThanOrEqual(66);
  });
});
