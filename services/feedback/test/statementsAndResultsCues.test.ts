import { analyzeSentiment } from '../src/core/domain/sentiment';
import { decisionCues } from '../src/core/domain/sentiment/decisionCues';
import { normalizeSentence, sentenceCues } from '../src/core/domain/sentiment/feedbackCues';

const cues = (sentence: string) => sentenceCues(normalizeSentence(sentence));
const committing = (sentence: string) => decisionCues(normalizeSentence(sentence)).committing;
const sentimentOf = (content: string) => analyzeSentiment('', content).sentiment;

describe('neutral statements, praise of results, quoted promises and complaining questions', () => {
  test('when a statement weighs, pauses or passes on, then it is no verdict', () => {
    expect(sentimentOf('Not complaining, just curious whether the export can include tags.')).toBe('neutral');
    expect(sentimentOf('No complaints from the team, but no real enthusiasm either.')).toBe('neutral');
    expect(sentimentOf('Some reports are more useful than others.')).toBe('neutral');
    expect(sentimentOf('The calendar is fine, the reminders are okay.')).toBe('neutral');
    expect(sentimentOf('Letting you know in case the import fails tonight.')).toBe('neutral');
    expect(sentimentOf('In case anyone asks: the export has been broken for a week.')).toBe('negative');
  });

  test("when a pause or a freeze is the customer's or the business's, then nothing froze", () => {
    expect(cues('We would like to pause our subscription for the summer.').problems).toBe(0);
    expect(cues('There is a budget freeze until January.').problems).toBe(0);
    expect(cues('The app froze and I lost my draft.').problems).toBeGreaterThan(0);
  });

  test('when a request is patient or formal, then it only asks', () => {
    expect(cues('No rush, whenever you get a chance.').courtesy).toBe(true);
    expect(cues('Thank you in advance, a written answer is fine.').courtesy).toBe(true);
    expect(cues('We are requesting an export of our account data.').requestOnly).toBe(true);
  });

  test('when praise names what the customer got or will do, then it is praise', () => {
    expect(cues('The smart filters saved me about $200 this month.').reliefs).toBeGreaterThan(0);
    expect(cues('Will definitely book again.').reliefs).toBeGreaterThan(0);
    expect(cues('Whoever built the importer deserves a medal.')).toMatchObject({ problems: 0, reliefs: 1 });
    expect(cues('My inbox has never looked cleaner.')).toMatchObject({ problems: 0, denial: true });
    expect(sentimentOf('The new dashboard is gorgeous.')).toBe('positive');
    expect(sentimentOf('The new dashboard is gorgeous, but it hides the totals.')).toBe('negative');
    expect(sentimentOf('Great reports, love the filters. Only wish the export had more formats.')).toBe('positive');
  });

  test('when a promise is quoted back or praise is given for a problem, then it is sarcasm', () => {
    expect(cues("The 'unlimited' storage stops at 50 GB.").sarcasm).toBe(true);
    expect(cues("'Cancel anytime' they said.").sarcasm).toBe(true);
    expect(cues('Five stars for the hidden fees.').sarcasm).toBe(true);
    expect(cues('Nice of them to tell us about the price change after the invoice went out.').sarcasm).toBe(true);
    expect(cues('Five stars for the new reports.').sarcasm).toBe(false);
  });

  test('when a question asks whether something works at all or what an update broke, then it complains', () => {
    expect(sentimentOf('Does the sync even work for anyone?')).toBe('negative');
    expect(sentimentOf('Did the latest release break the calendar sync?')).toBe('negative');
    expect(sentimentOf('Is the price billed annually?')).toBe('neutral');
  });

  test('when a customer wishes to continue or a purchase order arrives, then it commits; not when a complaint follows', () => {
    expect(committing("We'd like to continue with the Pro plan next year.")).toBeGreaterThan(0);
    expect(committing('Purchase order received for next year.')).toBeGreaterThan(0);
    expect(committing('Please add three more mailboxes to our plan.')).toBeGreaterThan(0);
    expect(sentimentOf('I would like to continue with you, but the price went up 40%.')).toBe('negative');
  });

  test('when data moves to another product of the kind, or something runs outside its hours, then it is a problem', () => {
    expect(
      decisionCues(normalizeSentence("We're migrating our projects to a different task-tracking tool in March."))
        .leaving,
    ).toBeGreaterThan(0);
    expect(cues('The booking system sends reminders outside our opening hours.').problems).toBeGreaterThan(0);
    expect(cues('Dropped the car off at the station in a minute.').problems).toBe(0);
  });
});
