/**
 * The vocabulary of software feedback: ways customers name one thing, folded into one term so that
 * "charged twice" and "invoice wrong" meet under billing, "iPhone app quits" and "Android crash" under
 * mobile crashes, "reports take forever" and "dashboard slow" under dashboards. General knowledge of the
 * domain, tuned on the product's own tuning sets (eval/intelligence/*-tune*.jsonl), never on the held-out
 * evaluation sets.
 */

/** Phrases spelled as one term before tokens are read (a replacement without a space is one word). */
export const PHRASES: Array<[RegExp, string]> = [
  [/\bsingle sign[ -]?on\b|\bidentity provider\b/gi, 'sso'],
  [/\b(?:log(?:s|ged|ging)?|sign(?:s|ed|ing)?)[ -]?(?:in|on)\b/gi, 'login'],
  [/\b(?:log(?:s|ged|ging)?|sign(?:s|ed|ing)?)[ -]?(?:out|off)\b/gi, 'logout'],
  [/\b(?:night|dark)[ -](?:mode|theme)\b|\bdarkmode\b/gi, 'dark mode'],
  [/\btwo[- ]factor\b|\b2fa\b|\bmfa\b/gi, 'twofactor'],
  [/\bmoney back\b/gi, 'refund'],
  [/\be-?mails?\b/gi, 'email'],
  [/\bspreadsheets?\b|\bexcel\b|\bxlsx\b/gi, 'spreadsheet'],
  [/\bread[- ]only\b/gi, 'readonly'],
  [/\bsign[ -]?ups?\b/gi, 'signup'],
  // "Teams" alone is a filler word ("our team"); the product is not.
  [/\b(?:microsoft|ms) teams\b/gi, 'msteams'],
  // ... nor is "Teams" capitalized within a sentence.
  [/(?<=[a-z,] )Teams\b/g, 'msteams'],
  [/\b(?:credit|debit|company|bank) cards?\b/gi, 'payment card'],
  [
    /\btime[ -]?track\w*|\btrack(?:s|ed|ing)? (?:time|hours)\b|\btime ?sheets?\b|\btime entr(?:y|ies)\b|\blog(?:s|ged|ging)? hours\b/gi,
    'timetracking',
  ],
  [
    /\bforce[ -]?clos\w*|\bshut(?:s|ting)? (?:itself )?down\b|\bclos(?:es|ed|ing) (?:itself|by itself|on its own)\b|\bkeeps? closing\b|\b(?:app|application) (?:quits|dies|closes)\b/gi,
    'crashes',
  ],
  [/\btak(?:es?|ing) (?:forever|ages)\b|\btim(?:es|ed|ing)? out\b/gi, 'slow'],
  [/\blook(?:s|ed|ing)? (?:it |them |\w+ )?up\b|\bquick find\b/gi, 'search'],
  [/\baccess (?:rights?|levels?|control)\b/gi, 'permissions'],
  [/\bexternal (?:users?|people|collaborators?|partners?)\b/gi, 'guests'],
  [/\bsub[- ]?tasks?\b|\bchild (?:issues?|tasks?|items?)\b/gi, 'subtask'],
  [
    /\bproof of (?:purchase|payment)\b|\b(?:payment|purchase) confirmation\b|\bconfirmation of (?:payment|purchase)\b/gi,
    'receipt',
  ],
  [/\b(?:two|2) times\b/gi, 'twice'],
  [/\bspecial characters?\b/gi, 'accents'],
  // Stemmed to "access", which would fold it into permissions.
  [/\baccessib(?:le|ility)\b/gi, 'a11y'],
];

/** How a word coined above is shown (in labels and top terms). */
export const SHOWN: Record<string, string> = {
  twofactor: '2FA',
  msteams: 'Microsoft Teams',
  timetracking: 'time tracking',
  a11y: 'accessibility',
};

/** Stems of one concept, under the stem that stands for them all. */
const CONCEPTS: Record<string, string[]> = {
  bill: [
    'invoic',
    'bill',
    'charg',
    'overcharg',
    'payment',
    'pay',
    'paid',
    'receipt',
    'refund',
    'subscript',
    'prorat',
    'vat',
  ],
  price: ['price', 'pricey', 'expens', 'cost', 'pricing'],
  discount: ['discount', 'coupon', 'promo', 'voucher'],
  dashboard: ['dashboard', 'report', 'chart', 'widget', 'analyt', 'graph', 'kpi', 'overview'],
  mobil: ['mobil', 'phone', 'smartphon', 'iphon', 'android', 'io', 'ipad', 'tablet', 'samsung', 'pixel', 'galaxi'],
  crash: ['crash', 'freez', 'froze', 'frozen', 'hang', 'hung', 'unrespons'],
  slow: [
    'slow',
    'slowli',
    'lag',
    'laggi',
    'sluggish',
    'latenc',
    'forev',
    'spinner',
    'spin',
    'timeout',
    'perform',
    'crawl',
  ],
  search: ['search', 'lookup'],
  calendar: ['calendar', 'ical', 'agenda'],
  permiss: ['permiss', 'role', 'privileg', 'viewer', 'guest'],
  attach: ['attach', 'upload'],
  timetrack: ['timetrack', 'timer', 'stopwatch'],
  sso: ['sso', 'saml', 'okta', 'idp'],
  email: ['email', 'mail', 'inbox'],
  login: ['login', 'signin', 'logon'],
  notif: ['notif', 'notifi', 'alert'],
  cancel: ['cancel', 'unsubscrib'],
  languag: ['languag', 'translat', 'localis', 'localiz'],
  duplic: ['duplic', 'twice', 'doubl'],
  stop: ['stop', 'halt'],
  accent: ['accent', 'umlaut', 'diacrit'],
  webhook: ['webhook', 'callback'],
  outag: ['outag', 'downtim'],
  jira: ['jira', 'atlassian'],
  import: ['import', 'migrat'],
  comment: ['comment', 'discuss'],
};

/** Stem → the stem of its concept. */
export const SAME: Record<string, string> = Object.fromEntries(
  Object.entries(CONCEPTS).flatMap(([concept, stems]) => stems.map((stem) => [stem, concept])),
);
