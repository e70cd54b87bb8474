import { analyzeSentiment } from '../src/core/domain/sentiment';
import { decisionCues } from '../src/core/domain/sentiment/decisionCues';
import { normalizeSentence, sentenceCues } from '../src/core/domain/sentiment/feedbackCues';

const cues = (sentence: string) => sentenceCues(normalizeSentence(sentence));
const decisions = (sentence: string) => decisionCues(normalizeSentence(sentence));
const sentimentOf = (content: string) => analyzeSentiment('', content).sentiment;

describe('notices, admin requests, thanks for help, fears proved wrong and choices said flatly', () => {
  test('when a text passes on changed details or an absence, then it judges nothing', () => {
    expect(sentimentOf('For your records, our finance lead has changed. Omar Haddad is now the billing contact.')).toBe(
      'neutral',
    );
    expect(sentimentOf('The practice manager is on maternity leave until June; her colleague will cover admin.')).toBe(
      'neutral',
    );
    expect(sentimentOf('Monthly call held. Usage steady across both sites. Nothing raised.')).toBe('neutral');
    expect(cues('Usage flat for three months.').problems).toBe(0);
    expect(cues('Sync has been broken for three months.').problems).toBeGreaterThan(0);
  });

  test('when an account change is asked in the imperative, then it only asks', () => {
    expect(cues('Update the billing email on our account to accounts@example.org.').requestOnly).toBe(true);
    expect(cues('Move all our templates to the second workspace.').requestOnly).toBe(true);
    expect(sentimentOf('Please switch my plan card to the company one. The personal card can be removed.')).toBe(
      'neutral',
    );
    expect(cues('The old depot can be deleted from our locations.').problems).toBe(0);
    expect(cues('All my saved routes were deleted overnight.').problems).toBeGreaterThan(0);
  });

  test('when thanks to someone close a story of help, then the story is its past', () => {
    expect(
      sentimentOf(
        'Big thanks to Marta in billing. Our card had been declined three times and she had it sorted within the hour.',
      ),
    ).toBe('positive');
    expect(cues('We would be grateful if you could check the invoice.').gratitude).toBe(false);
    expect(cues('Please pass on my thanks to the night shift.').request).toBe(false);
    expect(sentimentOf('Thanks to Marta for trying, but the export still fails.')).toBe('negative');
  });

  test('when a fear or a low expectation comes before a verdict without a problem, then it was proved wrong', () => {
    expect(sentimentOf('I was nervous the migration would lose our history, but every record came across.')).toBe(
      'positive',
    );
    expect(sentimentOf('I was worried about the migration, but it lost half our history.')).toBe('negative');
    expect(cues('Surprisingly quick for a banking app.').reliefs).toBeGreaterThan(0);
    expect(cues('The alerts saved us from a missed payroll run.').reliefs).toBeGreaterThan(0);
  });

  test('when churn or a commitment is said flatly, then it decides', () => {
    expect(decisions('The school has decided to go with a different booking system next term.').leaving).toBe(1);
    expect(decisions('They are comparing us against two cheaper suppliers.').leaving).toBeGreaterThan(0);
    expect(decisions('We moved everything over to shared spreadsheets last month.').leaving).toBe(1);
    expect(decisions('We are moving everything to the new workspace.').leaving).toBe(0);
    expect(decisions('Upsold them to the Plus tier with the reporting module.').committing).toBeGreaterThan(0);
    expect(decisions('Went annual at the end of the trial.').committing).toBeGreaterThan(0);
    expect(decisions('Please renew our licence for another year.').committing).toBeGreaterThan(0);
    expect(decisions('How do I add seats to our subscription?').committing).toBe(0);
  });
});
