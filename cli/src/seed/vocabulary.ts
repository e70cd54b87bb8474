export const FIRST_NAMES = [
  'Ava',
  'Liam',
  'Mia',
  'Noah',
  'Zoe',
  'Omar',
  'Lena',
  'Ravi',
  'Sofia',
  'Kenji',
  'Amara',
  'Lucas',
  'Ines',
  'Tomas',
  'Hana',
  'Diego',
  'Elif',
  'Marta',
  'Jonas',
  'Priya',
  'Chen',
  'Fatima',
  'Erik',
  'Nadia',
  'Yusuf',
  'Clara',
  'Mateo',
  'Aiko',
  'Samuel',
  'Leila',
];
export const LAST_NAMES = [
  'Garcia',
  'Smith',
  'Nguyen',
  'Kowalski',
  'Okafor',
  'Rossi',
  'Müller',
  'Tanaka',
  'Silva',
  'Haddad',
  'Johansson',
  'Patel',
  'Dubois',
  'Kim',
  'Novak',
  'Moreau',
  'Cohen',
  'Fischer',
  'Lopez',
  'Ivanova',
  'Brown',
  'Sato',
  'Costa',
  'Larsen',
  'Mendes',
];
export const COMPANY_STEMS = [
  'Acme',
  'Northwind',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Cyberdyne',
  'Tyrell',
  'Wonka',
  'Aperture',
  'Gringotts',
  'Oscorp',
  'Pied Piper',
  'Dunder',
  'Prestige',
  'Massive',
  'Blue Sun',
  'Monarch',
  'Nakatomi',
  'Zorg',
  'Virtucon',
];
export const COMPANY_SUFFIXES = [
  'Labs',
  'Systems',
  'Analytics',
  'Health',
  'Logistics',
  'Software',
  'Retail',
  'Capital',
  'Energy',
  'Media',
];
export const JOB_TITLES = [
  'Head of Support',
  'Product Manager',
  'CTO',
  'Customer Success Lead',
  'Operations Manager',
  'Data Analyst',
  'VP Engineering',
  'Marketing Director',
  'Founder',
  'IT Administrator',
];
export const CITIES = [
  'Berlin',
  'Lisbon',
  'Toronto',
  'Austin',
  'Singapore',
  'Nairobi',
  'São Paulo',
  'Melbourne',
  'Warsaw',
  'Osaka',
  'Dublin',
  'Madrid',
];
export const TAGS = [
  'vip',
  'beta',
  'churn-watch',
  'champion',
  'enterprise',
  'trial',
  'partner',
  'detractor',
  'promoter',
  'onboarding',
];
export const SOURCES = ['api', 'webhook', 'custom', 'intercom', 'zendesk', 'app-store', 'g2', 'email', 'slack'];
export const TOPICS = [
  'CSV export',
  'the mobile app',
  'SSO login',
  'the billing page',
  'search',
  'the dashboard',
  'notifications',
  'the API',
  'onboarding',
  'reporting',
  'integrations',
  'dark mode',
] as const;

/**
 * What customers write about each topic, in their own words: each topic has its own vocabulary (so the
 * service's themes find it) and glue words vary from text to text (so no template phrase looks like a theme).
 */
export const TOPIC_FEEDBACK: Record<
  (typeof TOPICS)[number],
  Record<'positive' | 'neutral' | 'negative', ReadonlyArray<readonly [string, string]>>
> = {
  'CSV export': {
    negative: [
      ['CSV export cuts off', 'The CSV export stops after 1,000 rows, so the file we send to finance is incomplete.'],
      ['Broken characters in CSV', 'Accented names come out garbled when I open the exported CSV file in Excel.'],
      ['Export never finishes', 'Exporting the full project list to CSV spins for ten minutes and then times out.'],
    ],
    neutral: [
      ['CSV delimiter', 'Can the CSV export use semicolons instead of commas for our German team?'],
      ['Scheduled export', 'Is there a way to schedule a weekly CSV export to a shared folder?'],
    ],
    positive: [
      ['CSV export is great', 'The new CSV export with custom columns saves our analysts an afternoon every month.'],
      ['Thanks for the export fix', 'Exports to CSV are fast now, even for our largest workspace. Thank you!'],
    ],
  },
  'the mobile app': {
    negative: [
      ['Mobile app crashes', 'The iPhone app crashes every time I open a task with attachments.'],
      ['Android app freezes', 'On Android the app freezes on the splash screen since the last update.'],
      ['Mobile app logs me out', 'The mobile app logs me out several times a day and I lose my draft comments.'],
    ],
    neutral: [
      ['Tablet layout', 'Will the mobile app get a layout for tablets held sideways?'],
      ['Offline mode on mobile', 'Does the mobile app work offline on a plane, and sync later?'],
    ],
    positive: [
      ['Love the mobile app', 'The new mobile app is quick and lets me triage everything on the train.'],
      ['Mobile widgets', 'The home-screen widget on my phone is brilliant, I check my tasks there every morning.'],
    ],
  },
  'SSO login': {
    negative: [
      ['SSO login fails', 'Signing in with SSO fails with an invalid SAML response for half of our team.'],
      ['Okta login loop', 'Our Okta single sign-on sends people back to the login page in an endless loop.'],
      ['SSO locked us out', 'After the certificate rotation nobody can log in through SSO and admins are locked out.'],
    ],
    neutral: [
      ['SSO with Azure AD', 'Do you support SAML single sign-on with Azure AD on the Business plan?'],
      ['Enforce SSO', 'Can we force every user to log in with SSO and disable passwords?'],
    ],
    positive: [
      ['SSO setup was easy', 'Setting up SSO with Okta took ten minutes thanks to the clear guide.'],
      ['SSO works perfectly', 'Since we moved to SAML login, onboarding new staff is painless.'],
    ],
  },
  'the billing page': {
    negative: [
      ['Charged twice', 'The billing page charged our card twice for the annual plan and we need a refund.'],
      [
        'Invoice address wrong',
        'Invoices still show our old company address although we changed it on the billing page.',
      ],
      ['Billing page error', 'The billing page shows an error when I try to update the credit card.'],
    ],
    neutral: [
      ['Invoice copies', "Where can I download copies of last year's invoices from the billing page?"],
      ['VAT number on invoices', 'How do we add our VAT number to the invoices?'],
    ],
    positive: [
      ['Clear billing', 'The new billing page makes our invoices and seat counts easy to follow.'],
      ['Quick refund', 'Billing support refunded the duplicate invoice within a day, thank you.'],
    ],
  },
  search: {
    negative: [
      ['Search finds nothing', 'Search finds nothing when I type the exact title of a task created today.'],
      ['Search is slow', 'Every search takes ten seconds in our workspace with 50,000 tasks.'],
      ['Search ignores filters', 'Search results include archived projects even with the archive filter on.'],
    ],
    neutral: [
      ['Search operators', 'Does search support quotes or boolean operators like AND and OR?'],
      ['Search in comments', 'Could search also look inside comments and attachments?'],
    ],
    positive: [
      ['Search is instant', 'The new search is instant and finds tasks by a single word of the description.'],
      ['Great search', 'Search suggestions save me so many clicks every day.'],
    ],
  },
  'the dashboard': {
    negative: [
      ['Dashboard loads slowly', 'The dashboard takes over a minute to load when it has more than ten widgets.'],
      ['Dashboard widgets blank', 'Half of the dashboard widgets stay blank until I reload the page.'],
      ['Dashboard numbers wrong', 'The dashboard totals do not match the report numbers for the same week.'],
    ],
    neutral: [
      ['Dashboard sharing', 'Can a dashboard be shared with clients who have no account?'],
      ['Dashboard refresh rate', 'How often do dashboard widgets refresh their data?'],
    ],
    positive: [
      ['Dashboard is a hit', 'Our leadership team loves the new dashboard, the weekly meeting is half as long.'],
      ['Dashboard widgets', 'Building a dashboard with drag and drop widgets is a joy.'],
    ],
  },
  notifications: {
    negative: [
      ['Email notifications late', 'Email notifications arrive hours after the comment was posted.'],
      ['Too many notifications', 'We get a notification email for every tiny change and people started ignoring them.'],
      ['Notifications in spam', 'All notification emails land in our spam folder since last week.'],
    ],
    neutral: [
      ['Notification digest', 'Is there a daily digest instead of one notification email per change?'],
      ['Mute notifications', 'Can I mute notifications for one project only?'],
    ],
    positive: [
      [
        'Useful notifications',
        'The new notification settings finally let me choose which emails I get. Much calmer inbox.',
      ],
      ['Notifications on time', 'Push notifications are instant now, great work.'],
    ],
  },
  'the API': {
    negative: [
      [
        'API rate limit too low',
        'The API returns 429 errors after only 100 requests a minute, our sync cannot keep up.',
      ],
      ['API timeouts', 'The REST API times out on the tasks endpoint whenever we ask for more than 500 items.'],
      ['API docs outdated', 'The API documentation lists fields that the endpoint no longer returns.'],
    ],
    neutral: [
      ['API webhooks', 'Does the API send webhooks when a task changes status?'],
      ['API pagination', 'What is the maximum page size of the API list endpoints?'],
    ],
    positive: [
      ['Great API', 'The API is well designed and the examples in the docs worked the first time.'],
      ['API client', 'The official API client saved our developers a week of work.'],
    ],
  },
  onboarding: {
    negative: [
      [
        'Onboarding is confusing',
        'The onboarding checklist skips the step that explains project templates, new hires get lost.',
      ],
      ['Invitation emails missing', 'Invited colleagues never receive the onboarding invitation email.'],
      ['Onboarding video broken', 'The onboarding tutorial video does not play in Firefox.'],
    ],
    neutral: [
      ['Onboarding for admins', 'Is there an onboarding guide for workspace admins?'],
      ['Onboarding session', 'Can we book a live onboarding session for a team of 30?'],
    ],
    positive: [
      ['Smooth onboarding', 'Onboarding was smooth, the checklist got our whole team started in one afternoon.'],
      ['Onboarding call', 'Thanks for the onboarding call, we now know how to set up templates.'],
    ],
  },
  reporting: {
    negative: [
      ['Reports time out', 'Monthly reports time out when the date range is longer than a quarter.'],
      ['Report PDF layout', 'The PDF version of the time report cuts the last column off.'],
      ['Reports show UTC', 'Reports show every time in UTC regardless of the workspace time zone.'],
    ],
    neutral: [
      ['Custom report fields', 'Can custom fields be used as columns in reports?'],
      ['Report scheduling', 'Is it possible to email a report to clients every Monday?'],
    ],
    positive: [
      ['Reports save time', 'The time reports replaced our spreadsheet and our invoicing is twice as fast.'],
      ['Beautiful reports', 'Clients love the shared reports, they look very professional.'],
    ],
  },
  integrations: {
    negative: [
      ['Slack integration posts twice', 'The Slack integration posts every update twice in our channel.'],
      ['Jira sync broken', 'The Jira integration stopped syncing status changes since Tuesday.'],
      ['Google Calendar sync', 'The Google Calendar integration creates duplicate events for every due date.'],
    ],
    neutral: [
      ['Teams integration', 'Is a Microsoft Teams integration planned, like the Slack one?'],
      ['Zapier triggers', 'Which Zapier triggers does the integration offer?'],
    ],
    positive: [
      ['Slack integration is great', 'The Slack integration keeps our whole team in the loop without extra meetings.'],
      ['Jira integration', 'The two-way Jira integration works flawlessly.'],
    ],
  },
  'dark mode': {
    negative: [
      ['Dark mode unreadable', 'In dark mode the comment text is dark grey on black and nobody can read it.'],
      ['Dark mode resets', 'Dark mode switches back to the light theme after every login.'],
      ['Please add a dark mode', 'Still no dark mode after two years of requests; the white screen hurts at night.'],
    ],
    neutral: [
      ['Dark mode schedule', 'Could dark mode follow the operating system setting automatically?'],
      ['Dark theme for reports', 'Will the dark theme also apply to printed reports?'],
    ],
    positive: [
      ['Dark mode at last', 'Dark mode looks fantastic, my eyes thank you during late shifts.'],
      ['Love the dark theme', 'The new dark theme is beautifully done, even the charts adapt.'],
    ],
  },
};
