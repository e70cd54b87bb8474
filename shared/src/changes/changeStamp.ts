/**
 * The last change of a record, stored on it in the same write as the change (so no other write can
 * disagree with it): what the changes feed lists live records by. Absent on records stored before the
 * feed existed and unchanged since (an export holds them).
 */
export interface ChangeStamped {
  changedAt?: Date;
  changeType?: 'created' | 'updated';
}

export const createdStamp = (now = new Date()): Required<ChangeStamped> => ({ changedAt: now, changeType: 'created' });
export const updatedStamp = (now = new Date()): Required<ChangeStamped> => ({ changedAt: now, changeType: 'updated' });
