import type { PublicExportJob } from '@fi/shared/database';
import type { ServiceEvent } from '../core';

/** An export of the organization's (feedback, contacts or accounts) finished. */
export const EXPORT_EVENT_TYPES = ['export.completed', 'export.failed'] as const;
export type ExportEventType = (typeof EXPORT_EVENT_TYPES)[number];

/** An export's end: one event per job and outcome, so a repeated announcement names the same event. */
export function exportEvent(
  orgId: string,
  job: PublicExportJob,
): ServiceEvent<ExportEventType, { export: PublicExportJob }> {
  return {
    id: `evt_export_${job.id}_${job.status}`,
    type: job.status === 'done' ? 'export.completed' : 'export.failed',
    orgId,
    itemId: job.id,
    occurredAt: job.finishedAt ?? new Date(),
    data: { export: job },
  };
}
