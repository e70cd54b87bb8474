import { analyzeSentiment } from '../src/core/domain/sentiment';
import { readLanguage } from '../src/core/domain/language/detectLanguage';
import { readFeedback } from '../src/core/domain/sentiment/feedbackSentiment';
import { ratingCue } from '../src/core/domain/sentiment/ratingCues';

describe('scores given with the text', () => {
  test('when an NPS comment, a rating out of 5 or 10, or stars come with the text, then their scale decides low or high', () => {
    expect(ratingCue('nps 3 - too many clicks')).toBe(-1);
    expect(ratingCue('nps: 10, keep going')).toBe(1);
    expect(ratingCue('nps 7 - fine')).toBe(0);
    expect(ratingCue('2/5, the sync is unreliable')).toBe(-1);
    expect(ratingCue('9 out of 10 would use again')).toBe(1);
    expect(ratingCue('one star until the export works')).toBe(-1);
    expect(ratingCue('★★★★ solid')).toBe(1);
  });

  test('when a number is not a score (seats, minutes, percentages), then it is no rating', () => {
    expect(ratingCue('we have 5 seats')).toBe(0);
    expect(ratingCue('score 40% on the audit')).toBe(0);
    expect(ratingCue('rated 4 stars last year')).toBe(1);
  });

  test('when a detractor writes a calm comment, then it is negative; a promoter, positive', () => {
    expect(
      analyzeSentiment('', 'NPS 2 - the reports take a long time and the numbers rarely match our accounting.')
        .sentiment,
    ).toBe('negative');
    expect(analyzeSentiment('', 'NPS 10 - the whole agency runs on it.').sentiment).toBe('positive');
  });
});

describe('plain statements and shrugs', () => {
  test('when a text only states facts, then the word model alone does not make it a complaint', () => {
    expect(analyzeSentiment('', 'We installed version 6.1 on the office computers on Monday.').sentiment).toBe(
      'neutral',
    );
    expect(analyzeSentiment('', 'Our finance team pays the invoices by bank transfer.').sentiment).toBe('neutral');
  });

  test('when a customer shrugs ("no strong feelings", "could be better"), then a negated word does not make it a complaint', () => {
    expect(analyzeSentiment('', "It's fine. I don't have strong opinions about it either way.").sentiment).toBe(
      'neutral',
    );
  });

  test('when a customer cannot work without the product, then it is praise, not a failure to work', () => {
    expect(analyzeSentiment('', "Honestly we couldn't run the studio without it anymore.").sentiment).toBe('positive');
  });

  test('when none of something works, or the customer names another product, then it is a complaint', () => {
    expect(analyzeSentiment('', 'None of the scheduled reports have arrived this week.').sentiment).toBe('negative');
    expect(analyzeSentiment('', 'Our ops team has started using a different platform for the rollout.').sentiment).toBe(
      'negative',
    );
  });
});

describe('other languages, short texts', () => {
  test('when a short text has a word of a read language that the trigram model confirms and no English word, then that language is named', () => {
    expect(readLanguage('Ferramenta muito boa').language).toBe('pt');
    expect(readLanguage('Herramienta muy útil').language).toBe('es');
  });

  test('when a complaint in another language has praise words beside it, then the praise does not cancel it', () => {
    expect(readFeedback('', 'Super, die Synchronisierung ist schon wieder kaputt.').sentiment).toBe('negative');
    expect(readFeedback('', 'Ótimo, de novo o relatório veio vazio.').sentiment).toBe('negative');
  });

  test('when an upgrade in another language has a word its lexicon reads as negative, then it stays positive', () => {
    expect(readFeedback('', 'Acabamos de renovar o contrato por mais dois anos.').sentiment).toBe('positive');
  });
});
