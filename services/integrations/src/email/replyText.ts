/**
 * What the sender wrote in a reply, without what they quoted and without their signature: feedback is the
 * new text, and a thread quoted below it would make every reply repeat the first mail's words.
 */

/** A line that opens the quoted original in common mail clients (English, German, French, Spanish). */
const QUOTE_HEADERS = [
  /^On\b.*\bwrote:\s*$/i,
  /^Am\b.*\bschrieb\b.*:\s*$/i,
  /^Le\b.*\ba écrit\s*:\s*$/i,
  /^El\b.*\bescribió:\s*$/i,
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
];
/** Outlook quotes the original under a header block: `From:` followed by `Sent:`/`Date:`/`To:`/`Subject:`. */
const OUTLOOK_FROM = /^\*?From:\*?\s/i;
const OUTLOOK_FIELD = /^\*?(Sent|Date|To|Subject|Cc):\*?\s/i;
/** The signature separator ("-- ", RFC 3676 section 4.3) and the lines phones and clients add at the end. */
const SIGNATURE = /^--\s?$/;
const CLIENT_FOOTER =
  /^(Sent from my\b|Sent from (Mail|Outlook)\b|Get Outlook for\b|Envoyé de mon\b|Von meinem\b.*gesendet)/i;

export function replyText(text: string): string {
  // "On <date>, <name> <address> wrote:" is often wrapped over two lines by the sender's client.
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].trimEnd();
    const joined = `${line} ${lines[i + 1]?.trim() ?? ''}`;
    if (QUOTE_HEADERS.some((header) => header.test(line))) break;
    if (/^(On|Am|Le|El)\b/i.test(line) && QUOTE_HEADERS.slice(0, 4).some((header) => header.test(joined))) break;
    if (OUTLOOK_FROM.test(line) && lines.slice(i + 1, i + 4).some((next) => OUTLOOK_FIELD.test(next.trim()))) break;
    if (SIGNATURE.test(line)) break;
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
  }
  while (kept.length > 0 && (kept.at(-1) === '' || CLIENT_FOOTER.test(kept.at(-1) as string))) kept.pop();
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
