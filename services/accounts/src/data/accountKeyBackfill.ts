import { MatchKeyBackfillStore, type Connection, type MatchKeyBackfill } from '@fi/shared';
import { accountModel } from './accountModel';
import { accountMatchKeys } from './accountRepository';

/** Match keys for accounts stored before links existed, computed as an import computes them. */
export function accountKeyBackfill(connection: Connection): MatchKeyBackfill {
  return new MatchKeyBackfillStore(accountModel(connection), {
    sources: ['domain', 'name'],
    keys: { domainKey: true, nameKey: true },
    keysOf: accountMatchKeys,
  });
}
