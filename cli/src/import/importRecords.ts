import { createAccountRepository } from '@fi/accounts/src/data/accountRepository';
import { createContactRepository } from '@fi/contacts/src/data/contactRepository';
import { FeedbackRepository, type FeedbackRecord } from '@fi/feedback/src/data/feedbackRepository';
import { validateNewFeedback, type NewFeedbackInput } from '@fi/feedback/src/domain/newFeedback';
import { isPlainObject, requireOneOf, STATUSES } from '@fi/shared';
import type { Databases } from '../databases';
import { RecordReader } from './recordReader';

export const IMPORT_KINDS = ['contacts', 'accounts', 'feedback'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** `id` is assigned on import and `totalFeedbacks` is computed, so both are accepted and ignored. */
const IGNORED = ['id', 'totalFeedbacks'];

type Parsed<T> = { record: T; problems: [] } | { record: null; problems: string[] };

function finish<T>(reader: RecordReader, build: () => T): Parsed<T> {
  return reader.problems.length > 0 ? { record: null, problems: reader.problems } : { record: build(), problems: [] };
}

function parseContact(value: unknown, now: Date) {
  const r = new RecordReader(value, ['name', 'email', 'phone', 'company', 'title', 'location', 'tags', 'lastInteraction', 'createdAt'], IGNORED);
  const fields = {
    name: r.string('name', { required: true, max: 200 }),
    email: r.email('email'),
    phone: r.string('phone', { max: 50 }),
    company: r.string('company', { max: 200 }),
    title: r.string('title', { max: 200 }),
    location: r.string('location', { max: 200 }),
    tags: r.tags('tags'),
    lastInteraction: r.date('lastInteraction'),
    createdAt: r.date('createdAt') ?? now,
  };
  return finish(r, () => ({ ...fields, name: fields.name as string }));
}

function parseAccount(value: unknown, now: Date) {
  const r = new RecordReader(value, ['name', 'domain', 'description', 'website', 'score', 'churnRisk', 'tags', 'createdAt'], IGNORED);
  const fields = {
    name: r.string('name', { required: true, max: 200 }),
    domain: r.string('domain', { max: 253 }),
    description: r.string('description', { max: 5_000 }),
    website: r.string('website', { max: 2_000 }),
    score: r.fraction('score'),
    churnRisk: r.fraction('churnRisk'),
    tags: r.tags('tags'),
    createdAt: r.date('createdAt') ?? now,
  };
  return finish(r, () => ({ ...fields, name: fields.name as string }));
}

function parseFeedback(value: unknown, now: Date): Parsed<FeedbackRecord> {
  const fields = ['source', 'title', 'content', 'author', 'email', 'sentiment', 'metadata', 'status', 'publishedDate', 'createdAt'];
  const r = new RecordReader(value, fields, IGNORED);
  const publishedDate = r.date('publishedDate');
  const createdAt = r.date('createdAt');
  let status: string | undefined;
  let valid: ReturnType<typeof validateNewFeedback> | undefined;
  try {
    status = requireOneOf('status', r.string('status'), STATUSES);
    // The API's own rules, so an import can store nothing that addFeedbackItem would refuse.
    if (isPlainObject(value)) valid = validateNewFeedback(value as unknown as NewFeedbackInput);
  } catch (error) {
    r.problems.push((error as Error).message);
  }
  return finish(r, () => ({
    ...(valid as ReturnType<typeof validateNewFeedback>),
    status: status ?? 'unread',
    publishedDate: publishedDate ?? createdAt ?? now,
    createdAt: createdAt ?? now,
  }));
}

export interface InvalidRecord {
  index: number;
  problems: string[];
}

/** Validates every record first; returns the problems, or the records ready to write. */
export function validateRecords(kind: ImportKind, values: unknown[], now = new Date()) {
  const parse = { contacts: parseContact, accounts: parseAccount, feedback: parseFeedback }[kind];
  const records: unknown[] = [];
  const invalid: InvalidRecord[] = [];
  values.forEach((value, index) => {
    const parsed = parse(value, now);
    if (parsed.record) records.push(parsed.record);
    else invalid.push({ index, problems: parsed.problems });
  });
  return { records, invalid };
}

/** Writes validated records in batches; `onProgress` gets the running count. */
export async function writeRecords(
  kind: ImportKind,
  orgId: string,
  records: unknown[],
  db: Databases,
  onProgress: (written: number) => void,
  batchSize = 2_000,
): Promise<number> {
  const insert = {
    contacts: (batch: unknown[]) => createContactRepository(db.contacts).insertMany(orgId, batch as never),
    accounts: (batch: unknown[]) => createAccountRepository(db.accounts).insertMany(orgId, batch as never),
    feedback: (batch: unknown[]) => new FeedbackRepository(db.feedback).insertMany(orgId, batch as FeedbackRecord[]),
  }[kind];
  let written = 0;
  for (let start = 0; start < records.length; start += batchSize) {
    written += await insert(records.slice(start, start + batchSize));
    onProgress(written);
  }
  return written;
}
