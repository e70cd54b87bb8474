import { checkAccount, createAccountRepository } from '@fi/accounts';
import { checkContact, createContactRepository } from '@fi/contacts';
import { checkImportedFeedback, feedbackImporter, type FeedbackRecord } from '@fi/feedback';
import type { Checked, FieldProblem } from '@fi/shared';
import type { Databases } from '../databases';

export const IMPORT_KINDS = ['contacts', 'accounts', 'feedback'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Each kind is checked by the domain rules of the service that owns it, the same rules its API uses. */
const CHECKS: Record<ImportKind, (record: unknown, now: Date) => Checked<unknown>> = {
  contacts: checkContact,
  accounts: checkAccount,
  feedback: checkImportedFeedback,
};

export interface InvalidRecord {
  /** 0-based position in the file. */
  index: number;
  problems: FieldProblem[];
}

/** Checks every record; returns the valid ones ready to write and every problem of the others. */
export function validateRecords(kind: ImportKind, values: unknown[], now = new Date()) {
  const records: unknown[] = [];
  const invalid: InvalidRecord[] = [];
  values.forEach((value, index) => {
    const checked = CHECKS[kind](value, now);
    if (checked.value !== null) records.push(checked.value);
    else invalid.push({ index, problems: checked.problems });
  });
  return { records, invalid };
}

/** `record 1: title: must be a string (got number)`, one line per problem. */
export function describeInvalid({ index, problems }: InvalidRecord): string[] {
  return problems.map(({ field, message }) => `record ${index + 1}: ${field}: ${message}`);
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
  let importer: Promise<(orgId: string, records: FeedbackRecord[]) => Promise<number>> | null = null;
  const feedbackWriter = () =>
    (importer ??= feedbackImporter(db.feedback, (error) =>
      console.error(`A batch's counts are left to the feedback service: ${String(error)}`),
    ));
  const insert = {
    contacts: (batch: unknown[]) => createContactRepository(db.contacts).insertMany(orgId, batch as never),
    accounts: (batch: unknown[]) => createAccountRepository(db.accounts).insertMany(orgId, batch as never),
    feedback: async (batch: unknown[]) => (await feedbackWriter())(orgId, batch as FeedbackRecord[]),
  }[kind];
  let written = 0;
  for (let start = 0; start < records.length; start += batchSize) {
    written += await insert(records.slice(start, start + batchSize));
    onProgress(written);
  }
  return written;
}
