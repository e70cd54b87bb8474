import { analyzeSentiment } from '../src/core/domain/sentiment';
import { scoreSentiment } from '../src/core/domain/sentiment/analyzeSentiment';
import { contrastClauses } from '../src/core/domain/sentiment/contrast';
import { decisionCues } from '../src/core/domain/sentiment/decisionCues';
import { normalizeSentence, sentenceCues } from '../src/core/domain/sentiment/feedbackCues';

const cues = (sentence: string) => sentenceCues(normalizeSentence(sentence));

describe('decisions about the account', () => {
  test('when a customer weighs other options or will not stay, then it is leaving', () => {
    expect(
      decisionCues(normalizeSentence("We're reviewing alternatives before our contract ends.")).leaving,
    ).toBeGreaterThan(0);
    expect(decisionCues(normalizeSentence("We won't be continuing after the pilot.")).leaving).toBeGreaterThan(0);
    expect(decisionCues(normalizeSentence('Please turn off auto-renewal for our workspace.')).leaving).toBeGreaterThan(
      0,
    );
    expect(decisionCues(normalizeSentence('Our renewal is on hold until the board meets.')).leaving).toBeGreaterThan(0);
  });

  test('when a customer says calmly that the team is migrating or closing its workspace, then it is leaving', () => {
    expect(decisionCues(normalizeSentence('The team prefers Notion, so we are migrating.')).leaving).toBe(1);
    expect(decisionCues(normalizeSentence('We are migrating to the annual plan next month.')).leaving).toBe(0);
    expect(
      decisionCues(normalizeSentence("We'd like to close our workspace at the end of this billing cycle.")).leaving,
    ).toBe(1);
  });

  test('when seats go from more to fewer, then it is leaving; from fewer to more, committing', () => {
    expect(decisionCues('please move us from 30 seats to 12 seats')).toEqual({ leaving: 1, committing: 0 });
    expect(decisionCues('please move us from 12 to 30 seats')).toEqual({ leaving: 0, committing: 1 });
  });

  test('when a customer renews, upgrades or adds seats, then it is committing, unless it is denied or a downgrade', () => {
    expect(decisionCues(normalizeSentence("We'll renew for two more years.")).committing).toBeGreaterThan(0);
    expect(
      decisionCues(normalizeSentence('Please add 8 more licences for the support desk.')).committing,
    ).toBeGreaterThan(0);
    expect(decisionCues(normalizeSentence('We are not going to renew.')).committing).toBe(0);
    expect(decisionCues(normalizeSentence('We would like to downgrade to the team plan.'))).toEqual({
      leaving: 1,
      committing: 0,
    });
  });

  test('when a decision is worded as a request, then it still decides the sentiment', () => {
    expect(analyzeSentiment('', 'Please cancel our subscription at the end of the month.').sentiment).toBe('negative');
    expect(
      analyzeSentiment('', 'Please add 6 more seats to our workspace, the new hires start Monday.').sentiment,
    ).toBe('positive');
  });

  test('when a question only asks what would happen, then it decides nothing', () => {
    expect(cues('What happens to our files if we downgrade?').decisions).toEqual({ leaving: 0, committing: 0 });
  });
});

describe('complaint forms', () => {
  test('when a customer quotes a promise, a hidden limit or a price rise, then it is a problem', () => {
    expect(cues("The pricing page says unlimited guests, but we're capped at ten.").problems).toBeGreaterThan(0);
    expect(cues('Apparently the audit log is only available on the enterprise tier.').problems).toBeGreaterThan(0);
    expect(cues('Our bill went up 40% with no warning.').problems).toBeGreaterThan(0);
  });

  test('when behaviour is described flatly as wrong, then it is a problem', () => {
    expect(cues('Column widths reset when I reload the board.').problems).toBeGreaterThan(0);
    expect(cues('The weekly digest arrives two hours late.').problems).toBeGreaterThan(0);
    expect(cues('The sync took 3-4 hours yesterday.').problems).toBeGreaterThan(0);
  });

  test('when a question is a complaint in disguise, then it counts as one', () => {
    expect(cues('Is it normal that the board needs a minute to open?').problems).toBeGreaterThan(0);
    expect(cues('What happened to the old calendar view?').problems).toBeGreaterThan(0);
    expect(cues('Is there an option to hide archived boards?').problems).toBe(0);
  });

  test('when praise opens a text that reports a problem, then it is ironic (the opener alone decides nothing)', () => {
    expect(
      analyzeSentiment('', 'Love how the timeline forgets my zoom level. Keeps things interesting.').sentiment,
    ).toBe('negative');
    expect(cues('Love how the timeline lets me drag whole phases at once.').praiseOpener).toBe(true);
  });
});

describe('mixed texts are judged by their verdict', () => {
  test('when a text concedes with "but", then the clause after it is the verdict', () => {
    expect(contrastClauses('The reports are pretty, but exports keep failing')).toEqual([
      { text: 'The reports are pretty', conceded: true },
      { text: 'exports keep failing', conceded: false },
    ]);
    expect(contrastClauses('Although onboarding was slow, the team now loves it').map((c) => c.conceded)).toEqual([
      true,
      false,
    ]);
    expect(contrastClauses('Nothing but praise from our team').length).toBe(1);
  });

  test('when praise is conceded before a problem, the text is negative; a problem conceded before praise, positive', () => {
    expect(
      analyzeSentiment('', 'The reports look lovely, but the export has failed every night this week.').sentiment,
    ).toBe('negative');
    expect(
      analyzeSentiment('', 'The first week was bumpy, but now the whole team relies on it and we love it.').sentiment,
    ).toBe('positive');
  });

  test('when a text only asks, then the word model does not make it a complaint', () => {
    expect(analyzeSentiment('', 'Is our data stored in Frankfurt?').sentiment).toBe('neutral');
    expect(analyzeSentiment('', 'Could you send the signed contract to our legal team?').sentiment).toBe('neutral');
  });

  test('when a short feature request is an imperative or a title, then it is neutral whatever its words', () => {
    for (const title of [
      'Add dark mode',
      'Export to PDF please',
      'Make the sidebar collapsible',
      'Show the total hours on the invoice',
    ]) {
      expect(analyzeSentiment(title, '').sentiment).toBe('neutral');
    }
    // "Dark" names the feature, not a verdict.
    expect(
      analyzeSentiment('Dark mode schedule', 'Could dark mode follow the operating system setting automatically?')
        .sentiment,
    ).toBe('neutral');
  });

  test('when a title only names the topic, then it does not dilute what the text says', () => {
    const content = 'The new billing page makes our invoices and seat counts easy to follow.';
    expect(scoreSentiment('Invoices', content)).toBe(scoreSentiment('', content));
    expect(
      analyzeSentiment('Dark mode at last', 'Dark mode looks fantastic, my eyes thank you during late shifts.')
        .sentiment,
    ).toBe('positive');
  });
});
