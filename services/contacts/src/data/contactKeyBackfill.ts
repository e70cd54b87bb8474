import { MatchKeyBackfillStore, type Connection, type MatchKeyBackfill } from '@fi/shared';
import { contactModel } from './contactModel';
import { contactMatchKeys } from './contactRepository';

/** Match keys for contacts stored before links existed, computed as an import computes them. */
export function contactKeyBackfill(connection: Connection): MatchKeyBackfill {
  return new MatchKeyBackfillStore(contactModel(connection), {
    sources: ['email', 'company'],
    keys: { emailLower: true, emailDomain: true, companyKey: true },
    keysOf: contactMatchKeys,
  });
}
