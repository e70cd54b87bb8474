import { recountOrganization } from '@fi/feedback';
import type { Databases } from '../databases';
import { UsageError, type Output } from '../output';

/**
 * `counts recount --org ORG`: counts the organization's feedback from its items and repairs every kept
 * figure (lists' totals, contacts' and accounts' figures, insights) that drifted, reporting the drift.
 */
export async function countsCommand(action: string | undefined, org: string | undefined, db: Databases, out: Output) {
  if (action !== 'recount') throw new UsageError('counts takes one action: recount');
  if (!org) throw new UsageError('counts recount needs --org ORG');
  const report = await recountOrganization(db.feedback, org);
  out.info(
    report.repairedCells === 0
      ? `Counted ${report.items} items of ${org} in ${report.cells} figures: no drift.`
      : `Counted ${report.items} items of ${org} in ${report.cells} figures: repaired ${report.repairedCells} that were off by ${report.drift} in all.`,
  );
  out.result(JSON.stringify(report));
}
