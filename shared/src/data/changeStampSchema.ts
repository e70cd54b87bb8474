import type { Schema } from 'mongoose';

/**
 * Adds the change stamp (see ChangeStamped) to a schema of organization records, with the index the
 * changes feed reads live records through: one organization's records by their last change.
 */
export function withChangeStamp(schema: Schema): void {
  schema.add({ changedAt: Date, changeType: String });
  schema.index({ orgId: 1, changedAt: 1, _id: 1 });
}
