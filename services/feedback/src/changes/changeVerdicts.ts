import type { Change, CountDelta } from '../core';
import type { RecordedChange } from './data/changeOutbox';

/** What the relay needs to know of an item to tell whether a change of it happened. */
export interface ChangeEvidence {
  /** The ids of the changes its last writes named (see FeedbackDocument.webhookEventIds). */
  changeIds?: string[];
}

/** Asked for the item a change is about; null when the item does not exist (any more). */
export interface ChangeEvidenceSource {
  changeEvidence(itemId: string): Promise<ChangeEvidence | null>;
  /** The delta of the items among `itemIds` that exist (what a batch that died midway wrote). */
  deltaOfExisting(orgId: string, itemIds: string[]): Promise<CountDelta>;
}

export type Verdict = 'publish' | 'wait' | 'drop';

/**
 * The relay's rules for a recorded change (see ChangeOutbox): publish it once its item proves it
 * happened, wait while its writer may still be at work, drop it when it never will happen.
 */
export class ChangeVerdicts {
  constructor(
    private readonly items: ChangeEvidenceSource,
    /** How long a change may wait for its write (see webhookIntentGraceMs). */
    private readonly graceMs: number,
  ) {}

  /** Whether `change` happened (publish), may still happen (wait) or never will (drop). */
  async verdict(change: RecordedChange, now = new Date()): Promise<Verdict> {
    if (change.ready) return 'publish';
    const doc = await this.items.changeEvidence(change.itemId);
    // A removal or a merge takes the item out of the live items: its absence is the proof.
    const gone = change.type === 'feedback.deleted' || change.type === 'feedback.merged';
    const applied = gone
      ? doc === null
      : change.type === 'feedback.imported'
        ? doc !== null
        : (doc?.changeIds ?? []).includes(change.id);
    if (applied) return 'publish';
    // The writer may still be between its intent and its change; past the grace period (far longer
    // than any write may take) the change failed, and the event must not be sent. An import batch
    // that died midway is counted for what it wrote.
    if (!this.pastGrace(change, now)) return 'wait';
    if (change.type === 'feedback.imported' && change.itemIds) {
      const written = await this.items.deltaOfExisting(change.orgId, change.itemIds);
      if (written.length > 0) {
        change.delta = written;
        return 'publish';
      }
    }
    return 'drop';
  }

  /** Whether the change's writer is certainly done with it (written and counted, or given up): past the grace period and what it held. */
  pastGrace(change: Pick<Change, 'occurredAt' | 'heldUntil'>, now = new Date()): boolean {
    return (
      now.getTime() - change.occurredAt.getTime() > this.graceMs &&
      (change.heldUntil === undefined || now > change.heldUntil)
    );
  }
}
