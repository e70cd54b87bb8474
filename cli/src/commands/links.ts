import { accountKeyBackfill } from '@fi/accounts';
import { contactKeyBackfill } from '@fi/contacts';
import { feedbackKeyBackfill, recountOrganizations } from '@fi/feedback';
import {
  runKeysetBackfill,
  type BackfillResult,
  type Connection,
  type KeyedRecord,
  type KeysetBackfill,
} from '@fi/shared/database';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';
import { backfillProgress, parseBatch, untilInterrupted } from './backfillRun';

type Service = 'contacts' | 'accounts' | 'feedback';

/** Each service's own backfill (its rule, its database), in the order they run. */
const BACKFILLS: ReadonlyArray<
  [Service, (connection: Connection, orgId: string | undefined) => KeysetBackfill<KeyedRecord>]
> = [
  ['contacts', contactKeyBackfill],
  ['accounts', accountKeyBackfill],
  ['feedback', feedbackKeyBackfill],
];

/**
 * `links backfill [--org ORG] [--batch N]`: gives records stored before links existed the match keys
 * the current version writes at creation and import, service by service. Ctrl-C stops after the
 * batch in progress; running the command again continues.
 */
export async function linksCommand(
  action: string | undefined,
  org: string | undefined,
  batch: string | undefined,
  db: Databases,
  out: Output,
) {
  if (action !== 'backfill') throw new UsageError('links takes one action: backfill');
  if (org === '') throw new UsageError('--org needs an organization');
  const batchSize = parseBatch(batch);
  const scope = org === undefined ? 'every organization' : org;

  const results: Partial<Record<Service, BackfillResult>> = {};
  const complete = await untilInterrupted(async (signal) => {
    for (const [service, backfillOf] of BACKFILLS) {
      const progress = backfillProgress(`Match keys of ${service}`);
      const result = await runKeysetBackfill(backfillOf(db[service], org), {
        batchSize,
        signal,
        onProgress: progress.onProgress,
      })
        .catch((error: Error) => {
          throw new Error(
            `${service}: ${error.message}. The keys written so far stay; run the command again to continue.`,
          );
        })
        .finally(progress.finish);
      results[service] = result;
      const skipped = result.skipped > 0 ? `, ${result.skipped} skipped (given keys meanwhile)` : '';
      if (!result.complete) {
        out.info(
          `Stopped in ${service} after ${result.written} of ${result.total} records${skipped}; run the command again to continue.`,
        );
        return false;
      }
      out.info(
        `${service}: wrote the match keys of ${result.written} of ${result.total} records without them in ${scope}${skipped}.`,
      );
      // Records from before links are also from before kept counts: their organizations are counted now.
      if (service === 'feedback' && result.written > 0) await recountOrganizations(db.feedback, org);
    }
    return true;
  });
  out.result(JSON.stringify({ ...results, complete }));
}
