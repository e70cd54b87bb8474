import type { Connection } from '@fi/shared/database';
import { organizationsWithItems, recountCells, type RecountReport } from './core';
import { themeDayTally, ThemeStore } from './themes';

/**
 * Counts an organization's items from scratch (one streamed read of its items) and rewrites every kept
 * figure that differs: the kept counts and the themes' day figures, reporting the drift it repaired. Writes
 * made while it runs may be overwritten: run it when the organization's writes are paused, or run it again
 * until it reports no drift.
 */
export async function recountOrganization(connection: Connection, orgId: string): Promise<RecountReport> {
  const tally = themeDayTally(orgId);
  const counted = await recountCells(connection, orgId, (doc) => tally.add(doc));
  const themes = await new ThemeStore(connection).days.replaceAll(orgId, tally.days);
  return {
    ...counted,
    repairedCells: counted.repairedCells + themes.repaired,
    drift: counted.drift + themes.drift,
  };
}

/** Recounts one organization, or every organization that has feedback (an upgrade's first count). */
export async function recountOrganizations(
  connection: Connection,
  orgId: string | undefined,
): Promise<RecountReport[]> {
  const orgIds = orgId !== undefined ? [orgId] : await organizationsWithItems(connection);
  const reports: RecountReport[] = [];
  for (const id of orgIds) reports.push(await recountOrganization(connection, id));
  return reports;
}
