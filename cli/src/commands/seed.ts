import { checkAccount, createAccountRepository } from '@fi/accounts';
import { checkContact, createContactRepository } from '@fi/contacts';
import { checkImportedFeedback, feedbackImporter } from '@fi/feedback';
import { type Checked, describeProblem } from '@fi/shared';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { progressBar } from '../progress';
import { generateSeedData, type SeedCounts } from '../seed/generate';

const BATCH = 5_000;
/**
 * Feedback goes in larger batches: each batch is one counted change that writes every count cell its
 * items touch once (a contact's, an account's, a day's), so fewer batches write far fewer cells
 * (100,000 items of 10,000 contacts: about 60,000 cell writes in batches of 20,000, 130,000 in 5,000,
 * about 27,000 in 50,000). The batch's intent holds its ids and cells (measured as BSON: 4.7 MB at 50,000
 * items of 10,000 contacts, 8.1 MB of 200,000 contacts; a cell per item would be about 10 MB), under the
 * 16 MB a document may hold.
 */
const FEEDBACK_BATCH = 50_000;

export function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

async function inBatches<T>(
  label: string,
  records: T[],
  insert: (batch: T[]) => Promise<number>,
  size = BATCH,
): Promise<number> {
  const bar = progressBar(label, records.length);
  let written = 0;
  for (let start = 0; start < records.length; start += size) {
    written += await insert(records.slice(start, start + size));
    bar.update(written);
  }
  bar.finish();
  return written;
}

function checkedOrThrow<T>(kind: string, records: unknown[], check: (record: unknown) => Checked<T>): T[] {
  return records.map((record, index) => {
    const checked = check(record);
    if (checked.value === null) {
      throw new Error(
        `generated ${kind} ${index + 1} breaks the ${kind} rules: ${checked.problems.map(describeProblem).join('; ')}`,
      );
    }
    return checked.value;
  });
}

export interface SeedOptions {
  /** Same seed, same data: a run can be repeated exactly. */
  seed?: number;
  /**
   * Writes only the feedback, whose authors are the contacts the same seed generates: more feedback
   * for contacts seeded before (the benchmark grows an organization this way).
   */
  feedbackOnly?: boolean;
}

/** Generates realistic data for one organization and writes it in bulk. */
export async function seedOrganization(
  orgId: string,
  counts: SeedCounts,
  db: Databases,
  out: Output,
  options: SeedOptions = {},
): Promise<SeedCounts> {
  const started = Date.now();
  const generated = generateSeedData(counts, options.seed);
  // Generated data goes through the owning services' rules like imported data: a generator that
  // drifts from them fails here instead of storing what the API would refuse.
  const now = new Date();
  const data = {
    accounts: checkedOrThrow('account', generated.accounts, (record) => checkAccount(record, now)),
    contacts: checkedOrThrow('contact', generated.contacts, (record) => checkContact(record, now)),
    feedback: checkedOrThrow('feedback', generated.feedback, (record) => checkImportedFeedback(record, now)),
  };
  const contacts = createContactRepository(db.contacts);
  const accounts = createAccountRepository(db.accounts);
  const [feedback] = await Promise.all([
    feedbackImporter(db.feedback, (error) =>
      out.info(`A batch's counts are left to the feedback service: ${String(error)}`),
    ),
    contacts.ensureIndexes(),
    accounts.ensureIndexes(),
  ]);
  const directory = !options.feedbackOnly;
  const written = {
    accounts: directory ? await inBatches('accounts', data.accounts, (batch) => accounts.insertMany(orgId, batch)) : 0,
    contacts: directory ? await inBatches('contacts', data.contacts, (batch) => contacts.insertMany(orgId, batch)) : 0,
    feedback: await inBatches('feedback', data.feedback, (batch) => feedback(orgId, batch), FEEDBACK_BATCH),
  };
  out.info(
    `Seeded ${orgId}: ${written.feedback} feedback items, ${written.contacts} contacts, ${written.accounts} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  return written;
}
