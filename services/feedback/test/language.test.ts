import { readLanguage } from '../src/core/domain/language/detectLanguage';
import { readFeedback, withSentiment } from '../src/core/domain/sentiment';

describe('language of feedback', () => {
  test('when a text is written in a language the service reads, then that language is named', () => {
    expect(readLanguage('Ich kündige mein Abo, die App stürzt ständig ab.').language).toBe('de');
    expect(readLanguage('Le produit ne fonctionne pas, je veux un remboursement.').language).toBe('fr');
    expect(readLanguage('La app va muy lenta desde la última actualización').language).toBe('es');
    expect(readLanguage('Não consigo exportar os relatórios em PDF').language).toBe('pt');
    expect(readLanguage('De export werkt niet meer sinds de update.').language).toBe('nl');
    expect(readLanguage('Il pagamento non funziona da ieri').language).toBe('it');
    expect(readLanguage('The export is broken again').language).toBe('en');
  });

  test('when a text is short or made of product names, then the language is null rather than a guess', () => {
    expect(readLanguage('Export CSV').language).toBeNull();
    expect(readLanguage('ok').language).toBeNull();
    expect(readLanguage('').language).toBeNull();
  });

  test('when a text is in another script, then the model names its language and it is foreign', () => {
    expect(readLanguage('Приложение постоянно падает после обновления')).toEqual({ language: 'ru', foreign: true });
    expect(readLanguage('アプリがすぐにクラッシュします')).toEqual({ language: 'ja', foreign: true });
  });
});

describe('sentiment in the text’s language', () => {
  test('when a complaint is written in German, French, Spanish, Portuguese or Dutch, then it is read negative in that language', () => {
    expect(readFeedback('', 'Ich kündige mein Abo, die App stürzt ständig ab.')).toMatchObject({
      language: 'de',
      sentiment: 'negative',
    });
    expect(readFeedback('', 'Le produit ne fonctionne pas, je veux un remboursement.')).toMatchObject({
      language: 'fr',
      sentiment: 'negative',
    });
    expect(readFeedback('', 'La app va muy lenta desde la última actualización y nadie responde.')).toMatchObject({
      language: 'es',
      sentiment: 'negative',
    });
    expect(readFeedback('', 'O aplicativo não abre desde a atualização, estou muito insatisfeito.')).toMatchObject({
      language: 'pt',
      sentiment: 'negative',
    });
    expect(readFeedback('', 'De export werkt niet meer sinds de update.')).toMatchObject({
      language: 'nl',
      sentiment: 'negative',
    });
  });

  test('when praise or a question is written in another language, then it is positive or neutral', () => {
    expect(readFeedback('', 'Merci beaucoup pour votre aide, tout fonctionne parfaitement !')).toMatchObject({
      language: 'fr',
      sentiment: 'positive',
    });
    expect(readFeedback('', 'Wie kann ich meine Rechnung herunterladen?')).toMatchObject({
      language: 'de',
      sentiment: 'neutral',
    });
  });

  test('when the language is not one the service reads, then there is no sentiment and the source says why', () => {
    const record = withSentiment({
      title: 'Сбой',
      content: 'Приложение постоянно падает после обновления, верните деньги',
      status: 'unread',
    });
    expect(record).toMatchObject({ sentimentSource: 'unsupported-language', language: 'ru' });
    expect(record.sentiment).toBeUndefined();
    expect(record.sentimentScore).toBeUndefined();
  });

  test('when a text in a read language gives no clear verdict, then it has no sentiment rather than a guess', () => {
    const record = withSentiment({
      title: '',
      content: 'Wir ziehen nächsten Monat mit dem ganzen Team in ein neues Büro in Hamburg um.',
    });
    expect(record).toMatchObject({ sentimentSource: 'uncertain', language: 'de' });
    expect(record.sentiment).toBeUndefined();
  });

  test('when a question in another language runs over several sentences, then it may be a polite complaint: no sentiment rather than neutral', () => {
    // Neither sentence names a problem the German cues know, so "neutral" would be a guess.
    const record = withSentiment({
      title: '',
      content:
        'Guten Tag, wir haben letzte Woche die Rechnung für März bekommen. Können Sie die Positionen noch einmal prüfen?',
    });
    expect(record).toMatchObject({ sentimentSource: 'uncertain', language: 'de' });
    expect(record.sentiment).toBeUndefined();
    expect(readFeedback('', 'Gibt es eine deutsche Version?')).toMatchObject({ language: 'de', sentiment: 'neutral' });
  });

  test('when a client provides a sentiment, then it is kept and the language is still read', () => {
    expect(
      withSentiment({ title: 'Merci', content: 'Merci pour la mise à jour de ce matin', sentiment: 'neutral' }),
    ).toMatchObject({
      sentiment: 'neutral',
      sentimentSource: 'provided',
      language: 'fr',
    });
  });

  test('when customers say they are leaving, mock with praise, or renew, then the English reading follows the verdict', () => {
    expect(readFeedback('', 'We have started a trial of another tool.').sentiment).toBe('negative');
    expect(readFeedback('', 'Love paying for loading spinners').sentiment).toBe('negative');
    expect(readFeedback('', 'We renewed for 60 seats this morning.').sentiment).toBe('positive');
    expect(readFeedback('', 'Is there a reason the report takes ten minutes to load every time?').sentiment).toBe(
      'negative',
    );
  });
});
