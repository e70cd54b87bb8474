import { htmlToText, titleOf } from '../src/connectors/htmlText';
import { slackText } from '../src/connectors/slack';

describe("a platform's message as plain text", () => {
  test('when Intercom sends HTML, then paragraphs and breaks are lines, lists are dashes, entities decoded, scripts dropped', () => {
    expect(
      htmlToText(
        '<p>Export <b>fails</b> &amp; times&nbsp;out.</p><p>Steps:<br>one<br/>two</p><ul><li>Chrome</li><li>Safari &#8211; 17</li></ul><script>alert(1)</script>',
      ),
    ).toBe('Export fails & times out.\nSteps:\none\ntwo\n\n- Chrome\n- Safari – 17');
    expect(htmlToText('<p>&lt;tag&gt; &quot;quoted&quot; &#x1F600; &bogus;</p>')).toBe('<tag> "quoted" 😀 &bogus;');
    expect(htmlToText('   ')).toBe('');
  });

  test('when a message has no title, then its first line is one, cut at a word before 120 characters', () => {
    expect(titleOf('\n\nFirst line\nsecond')).toBe('First line');
    const long = `${'word '.repeat(40)}end`;
    const title = titleOf(long);
    expect(title.length).toBeLessThanOrEqual(120);
    expect(title.endsWith('word…')).toBe(true);
  });

  test("when Slack sends mrkdwn, then links and mentions read as their labels and Slack's escapes are decoded", () => {
    expect(
      slackText('See <https://docs.example.com|the docs> &amp; <https://x.io> cc <@U123> in <#C1|general> &lt;3'),
    ).toBe('See the docs & https://x.io cc @U123 in general <3');
  });
});
