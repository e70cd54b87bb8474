import { analyzeSentiment } from '../src/core/domain/sentiment';
import { decisionCues } from '../src/core/domain/sentiment/decisionCues';
import { normalizeSentence, sentenceCues } from '../src/core/domain/sentiment/feedbackCues';

const cues = (sentence: string) => sentenceCues(normalizeSentence(sentence));
const sentimentOf = (content: string) => analyzeSentiment('', content).sentiment;

describe('balanced verdicts, plain questions and flat commitments', () => {
  test('when a verdict weighs both sides, then it is a shrug and its problem words are not reported', () => {
    expect(cues('Not great, not awful.')).toMatchObject({ lukewarm: true, problems: 0 });
    expect(cues('Neither delighted nor annoyed.')).toMatchObject({ lukewarm: true, problems: 0 });
    expect(sentimentOf('Some weeks it syncs fast, some weeks it is slow. Roughly average.')).toBe('neutral');
    expect(sentimentOf("Middle of the road for a notes app. Not the worst I've tried, not the best either.")).toBe(
      'neutral',
    );
  });

  test('when a question names no problem, then its words do not make it a complaint; a question that complains says so', () => {
    expect(sentimentOf('If we move to yearly billing, do our saved reports carry over?')).toBe('neutral');
    expect(sentimentOf('Is there any reason the dashboard needs a full minute to load?')).toBe('negative');
    expect(cues('Customer asked why they pay for ten seats when only six can be assigned.').problems).toBeGreaterThan(
      0,
    );
  });

  test('when a customer renews or expands flatly, then it is committing', () => {
    expect(
      decisionCues(normalizeSentence('We intend to renew the contract for another term.')).committing,
    ).toBeGreaterThan(0);
    expect(decisionCues(normalizeSentence('Please add three more warehouses to our plan.')).committing).toBeGreaterThan(
      0,
    );
    expect(decisionCues(normalizeSentence('The purchase order for 40 seats is attached.')).committing).toBeGreaterThan(
      0,
    );
    expect(
      decisionCues(normalizeSentence('We are going from Starter to Business next month.')).committing,
    ).toBeGreaterThan(0);
    expect(decisionCues(normalizeSentence('Please add two users, Ana and Raj.')).committing).toBe(0);
  });

  test('when a note reports sarcasm or a setting is ignored, then it is a complaint', () => {
    expect(cues('The client joked that the report builder is great if you have a free week.').sarcasm).toBe(true);
    expect(
      cues('Invoices are generated in USD even when the account currency is set to EUR.').problems,
    ).toBeGreaterThan(0);
  });

  test('when praise names an outcome, then it is praise; a colleague moving teams is not churn', () => {
    expect(cues('It reduced our support tickets by roughly a quarter.').reliefs).toBeGreaterThan(0);
    expect(cues('Really appreciate how the app reminds me before a payment is due.').reliefs).toBeGreaterThan(0);
    expect(cues('Maria is moving to a different department, please transfer her projects.').problems).toBe(0);
  });
});
