import { MatchKeyBackfill, type Connection, type KeyedRecord, type KeysetBackfill } from '@fi/shared/database';
import { accountModel } from './accountModel';
import { accountMatchKeys } from './accountRepository';

/** Match keys for accounts stored before links existed, computed as an import computes them. */
export function accountKeyBackfill(connection: Connection, orgId: string | undefined): KeysetBackfill<KeyedRecord> {
  return new MatchKeyBackfill(
    accountModel(connection),
    {
      sources: ['domain', 'name'],
      keys: { domainKey: true, nameKey: true },
      keysOf: accountMatchKeys,
    },
    orgId,
  );
}
