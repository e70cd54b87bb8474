import { MatchKeyBackfill, type Connection, type KeyedRecord, type KeysetBackfill } from '@fi/shared/database';
import { contactModel } from './contactModel';
import { contactMatchKeys } from './contactRepository';

/** Match keys for contacts stored before links existed, computed as an import computes them. */
export function contactKeyBackfill(connection: Connection, orgId: string | undefined): KeysetBackfill<KeyedRecord> {
  return new MatchKeyBackfill(
    contactModel(connection),
    {
      sources: ['email', 'company'],
      keys: { emailLower: true, emailDomain: true, companyKey: true },
      keysOf: contactMatchKeys,
    },
    orgId,
  );
}
