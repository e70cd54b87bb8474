import { RecordRules, type Checked, type CsvColumns } from '@fi/shared';
import type { ContactRecord } from '../model/contact';

export type { ContactRecord };

/**
 * Longest accepted text per field, in characters, and most tags a record holds (`tags`, each at most `tag`
 * characters); documented in docs/limits.md.
 */
export const CONTACT_LIMITS = {
  name: 200,
  phone: 50,
  company: 200,
  title: 200,
  location: 200,
  tags: 50,
  tag: 100,
} as const;

const FIELDS = ['name', 'email', 'phone', 'company', 'title', 'location', 'tags', 'lastInteraction', 'createdAt'];
/** `id` is assigned on import and `totalFeedbacks` is computed, so a file may carry both; they are ignored. */
const IGNORED = ['id', 'totalFeedbacks'];

/** What a member edits of a contact (the admin API's ContactInput); the times stay as they are. */
export const CONTACT_EDITABLE = ['name', 'email', 'phone', 'company', 'title', 'location', 'tags'] as const;

/** The columns of a CSV import: the fields, and the ones an export writes that are ignored. */
export const CONTACT_CSV_COLUMNS: CsvColumns = { known: [...FIELDS, ...IGNORED], lists: ['tags'] };

/** The contacts service's rules for a contact record, wherever it comes from (import, seed, the admin API). */
export function checkContact(record: unknown, now: Date): Checked<ContactRecord> {
  const rules = new RecordRules(record, FIELDS, IGNORED);
  const contact = {
    name: rules.text('name', { required: true, max: CONTACT_LIMITS.name }),
    email: rules.email('email'),
    phone: rules.text('phone', { max: CONTACT_LIMITS.phone }),
    company: rules.text('company', { max: CONTACT_LIMITS.company }),
    title: rules.text('title', { max: CONTACT_LIMITS.title }),
    location: rules.text('location', { max: CONTACT_LIMITS.location }),
    tags: rules.tags('tags', { maxCount: CONTACT_LIMITS.tags, max: CONTACT_LIMITS.tag }),
    lastInteraction: rules.date('lastInteraction'),
    createdAt: rules.date('createdAt') ?? now,
  };
  return rules.result(() => ({ ...contact, name: contact.name! }));
}
