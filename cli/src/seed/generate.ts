import { SENTIMENTS, STATUSES, type FeedbackRecord } from '@fi/feedback';
import { Random } from './random';
import {
  CITIES,
  COMPANY_STEMS,
  COMPANY_SUFFIXES,
  FIRST_NAMES,
  JOB_TITLES,
  LAST_NAMES,
  SOURCES,
  TAGS,
  TOPIC_FEEDBACK,
  TOPICS,
} from './vocabulary';

const DAY_MS = 86_400_000;

export interface SeedCounts {
  feedback: number;
  contacts: number;
  accounts: number;
}

export interface SeedData {
  accounts: Array<{
    name: string;
    domain: string;
    description: string;
    website: string;
    score: number;
    churnRisk: number;
    tags: string[];
    createdAt: Date;
  }>;
  contacts: Array<{
    name: string;
    email: string;
    phone: string;
    company: string;
    title: string;
    location: string;
    tags: string[];
    lastInteraction: Date;
    createdAt: Date;
  }>;
  feedback: FeedbackRecord[];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '');
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Realistic demo data for one organization: accounts, their people, and feedback of which about
 * three quarters comes from those people (so totalFeedbacks and lastInteraction have something to show).
 */
export function generateSeedData(counts: SeedCounts, seed = 42, now = Date.now()): SeedData {
  const random = new Random(seed);
  const accounts = Array.from({ length: counts.accounts }, (_, i) => {
    const name = `${COMPANY_STEMS[i % COMPANY_STEMS.length]} ${COMPANY_SUFFIXES[Math.floor(i / COMPANY_STEMS.length) % COMPANY_SUFFIXES.length]}${i >= COMPANY_STEMS.length * COMPANY_SUFFIXES.length ? ` ${i}` : ''}`;
    const domain = `${slug(name)}.example`;
    const score = round2(random.next());
    return {
      name,
      domain,
      description: `${name} is a ${random.pick(COMPANY_SUFFIXES).toLowerCase()} company in ${random.pick(CITIES)}.`,
      website: `https://www.${domain}`,
      score,
      churnRisk: round2(Math.min(1, Math.max(0, 1 - score + (random.next() - 0.5) * 0.3))),
      tags: random.some(TAGS, 2),
      createdAt: new Date(now - random.int(30, 720) * DAY_MS),
    };
  });

  const contacts = Array.from({ length: counts.contacts }, (_, i) => {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const account = accounts.length > 0 ? accounts[i % accounts.length] : undefined;
    const domain = account?.domain ?? 'mail.example';
    return {
      name: `${first} ${last}`,
      email: `${slug(first)}.${slug(last)}${i}@${domain}`,
      phone: `+1-555-${String(random.int(0, 9999)).padStart(4, '0')}`,
      company: account?.name ?? 'Independent',
      title: random.pick(JOB_TITLES),
      location: random.pick(CITIES),
      tags: random.some(TAGS, 3),
      lastInteraction: new Date(now - random.int(1, 365) * DAY_MS),
      createdAt: new Date(now - random.int(1, 700) * DAY_MS),
    };
  });

  const feedback = Array.from({ length: counts.feedback }, (): FeedbackRecord => {
    const sentiment = random.pick(SENTIMENTS);
    const topic = random.pick<(typeof TOPICS)[number]>(TOPICS);
    const [title, content] = random.pick(TOPIC_FEEDBACK[topic][sentiment]);
    const author = contacts.length > 0 && random.chance(0.75) ? random.pick(contacts) : undefined;
    const publishedDate = new Date(now - random.int(0, 180 * 24 * 60) * 60_000);
    return {
      source: random.pick(SOURCES),
      title,
      content,
      ...(author ? { author: author.name, email: author.email } : {}),
      ...(random.chance(0.9) ? { sentiment } : {}),
      status: random.pick(STATUSES),
      metadata: { plan: random.pick(['free', 'pro', 'enterprise']), channel: random.pick(['web', 'ios', 'android']) },
      publishedDate,
      createdAt: publishedDate,
    };
  });

  return { accounts, contacts, feedback };
}
