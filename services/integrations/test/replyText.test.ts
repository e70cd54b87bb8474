import { replyText } from '../src/email';

describe('the text of a reply', () => {
  test('when Gmail quotes the original under "On ... wrote:" over two lines, then only the new text stays', () => {
    const text =
      'Thanks, that fixed it.\n\nOn Mon, Nov 23, 2026 at 10:02 AM Support Team <\nsupport@vendor.example> wrote:\n> Try again?\n';
    expect(replyText(text)).toBe('Thanks, that fixed it.');
  });

  test('when Outlook quotes under a From/Sent header block, then it is cut there', () => {
    const text =
      'Still broken for us.\r\n\r\n________________________________\r\nFrom: Support <s@vendor.example>\r\nSent: Monday\r\nTo: me\r\n\r\nOld text';
    expect(replyText(text)).toBe('Still broken for us.');
    const withoutRule = 'Still broken.\nFrom: Support <s@vendor.example>\nSent: Monday\nSubject: Re: x\nOld';
    expect(replyText(withoutRule)).toBe('Still broken.');
  });

  test('when German and French clients quote, then their headers are recognised too', () => {
    expect(replyText('Geht nicht.\n\nAm 23.11.2026 um 10:00 schrieb Support <s@v.example>:\n> alt')).toBe(
      'Geht nicht.',
    );
    expect(replyText('Ça marche pas.\n\nLe lun. 23 nov. 2026 à 10:00, Support a écrit :\n> vieux')).toBe(
      'Ça marche pas.',
    );
  });

  test('when a signature follows "-- " or a phone footer ends the mail, then they are left out', () => {
    expect(replyText('Love the new search.\n\n-- \nJane Doe\nACME Corp, VP Ops')).toBe('Love the new search.');
    expect(replyText('Love the new search.\n\nSent from my iPhone')).toBe('Love the new search.');
  });

  test('when quoted lines are interleaved with answers, then the answers stay and the quotes go', () => {
    expect(replyText('> Which browser?\nFirefox 140.\n> Which page?\nThe export page.')).toBe(
      'Firefox 140.\nThe export page.',
    );
  });

  test('when a line merely starts with "On", then the text is kept whole', () => {
    expect(replyText('On the export page the button is hidden.\nPlease fix.')).toBe(
      'On the export page the button is hidden.\nPlease fix.',
    );
  });
});
