import { RecordRules, type Checked, type CsvColumns } from '@fi/shared';
import type { AccountRecord } from '../model/account';

export type { AccountRecord };

/**
 * Longest accepted text per field, in characters, and most tags a record holds (`tags`, each at most `tag`
 * characters); documented in docs/limits.md.
 */
export const ACCOUNT_LIMITS = {
  name: 200,
  domain: 253,
  description: 5_000,
  website: 2_000,
  tags: 50,
  tag: 100,
} as const;

const FIELDS = ['name', 'domain', 'description', 'website', 'score', 'churnRisk', 'tags', 'createdAt'];
/** `id` is assigned on import, so a file may carry one; it is ignored. */
const IGNORED = ['id'];

/** What a member edits of an account (the admin API's AccountInput); the creation time stays. */
export const ACCOUNT_EDITABLE = ['name', 'domain', 'description', 'website', 'score', 'churnRisk', 'tags'] as const;

/** The columns of a CSV import: the fields, and the id an export writes, which is ignored. */
export const ACCOUNT_CSV_COLUMNS: CsvColumns = {
  known: [...FIELDS, ...IGNORED],
  numbers: ['score', 'churnRisk'],
  lists: ['tags'],
};

/** The accounts service's rules for an account record, wherever it comes from (import, seed, the admin API). */
export function checkAccount(record: unknown, now: Date): Checked<AccountRecord> {
  const rules = new RecordRules(record, FIELDS, IGNORED);
  const account = {
    name: rules.text('name', { required: true, max: ACCOUNT_LIMITS.name }),
    domain: rules.text('domain', { max: ACCOUNT_LIMITS.domain }),
    description: rules.text('description', { max: ACCOUNT_LIMITS.description, multiline: true }),
    website: rules.text('website', { max: ACCOUNT_LIMITS.website }),
    score: rules.fraction('score'),
    churnRisk: rules.fraction('churnRisk'),
    tags: rules.tags('tags', { maxCount: ACCOUNT_LIMITS.tags, max: ACCOUNT_LIMITS.tag }),
    createdAt: rules.date('createdAt') ?? now,
  };
  return rules.result(() => ({ ...account, name: account.name! }));
}
