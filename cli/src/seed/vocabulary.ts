export const FIRST_NAMES = ['Ava', 'Liam', 'Mia', 'Noah', 'Zoe', 'Omar', 'Lena', 'Ravi', 'Sofia', 'Kenji', 'Amara', 'Lucas', 'Ines', 'Tomas', 'Hana', 'Diego', 'Elif', 'Marta', 'Jonas', 'Priya', 'Chen', 'Fatima', 'Erik', 'Nadia', 'Yusuf', 'Clara', 'Mateo', 'Aiko', 'Samuel', 'Leila'];
export const LAST_NAMES = ['Garcia', 'Smith', 'Nguyen', 'Kowalski', 'Okafor', 'Rossi', 'Müller', 'Tanaka', 'Silva', 'Haddad', 'Johansson', 'Patel', 'Dubois', 'Kim', 'Novak', 'Moreau', 'Cohen', 'Fischer', 'Lopez', 'Ivanova', 'Brown', 'Sato', 'Costa', 'Larsen', 'Mendes'];
export const COMPANY_STEMS = ['Acme', 'Northwind', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Vandelay', 'Soylent', 'Cyberdyne', 'Tyrell', 'Wonka', 'Aperture', 'Gringotts', 'Oscorp', 'Pied Piper', 'Dunder', 'Prestige', 'Massive', 'Blue Sun', 'Monarch', 'Nakatomi', 'Zorg', 'Virtucon'];
export const COMPANY_SUFFIXES = ['Labs', 'Systems', 'Analytics', 'Health', 'Logistics', 'Software', 'Retail', 'Capital', 'Energy', 'Media'];
export const JOB_TITLES = ['Head of Support', 'Product Manager', 'CTO', 'Customer Success Lead', 'Operations Manager', 'Data Analyst', 'VP Engineering', 'Marketing Director', 'Founder', 'IT Administrator'];
export const CITIES = ['Berlin', 'Lisbon', 'Toronto', 'Austin', 'Singapore', 'Nairobi', 'São Paulo', 'Melbourne', 'Warsaw', 'Osaka', 'Dublin', 'Madrid'];
export const TAGS = ['vip', 'beta', 'churn-watch', 'champion', 'enterprise', 'trial', 'partner', 'detractor', 'promoter', 'onboarding'];
export const SOURCES = ['api', 'webhook', 'custom', 'intercom', 'zendesk', 'app-store', 'g2', 'email', 'slack'];
export const TOPICS = ['CSV export', 'the mobile app', 'SSO login', 'the billing page', 'search', 'the dashboard', 'notifications', 'the API', 'onboarding', 'reporting', 'integrations', 'dark mode'];

export const TEMPLATES = {
  positive: [
    ['Love {topic}', 'Since the last release {topic} is fast and reliable. Our team uses it every day.'],
    ['Great job on {topic}', 'Setting up {topic} took five minutes. Exactly what we needed.'],
    ['{topic} saves us hours', 'We used to do this by hand; {topic} now does it for us every week.'],
  ],
  neutral: [
    ['Question about {topic}', 'Is there a way to configure {topic} per workspace? Could not find it in the docs.'],
    ['Suggestion for {topic}', 'It would help if {topic} remembered the last filter we used.'],
    ['{topic} behaviour', 'Noticed {topic} changed after the update; not sure whether that is intended.'],
  ],
  negative: [
    ['{topic} is broken', 'Since yesterday {topic} fails with an error for half of our users.'],
    ['{topic} is very slow', '{topic} takes over a minute to load with 10k rows. This blocks our weekly review.'],
    ['Frustrated with {topic}', 'We reported the {topic} issue three weeks ago and it still happens.'],
  ],
} as const;
