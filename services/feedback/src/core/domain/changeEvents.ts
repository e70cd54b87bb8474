import type { Change } from '../model/change';

/**
 * How the core announces a change (implemented by the change stream, see changes/): recorded before the
 * write, named in the write, counted and published after it.
 */
export interface ChangeEvents {
  /** Durably records the change; must complete before the change is written. */
  record(change: Change): Promise<void>;
  /** Records many changes at once (a batch's), as record does each. */
  recordAll(changes: Change[]): Promise<void>;
  /** Changes whose proof is about to go with their document (a removal): they are kept as applied. */
  markApplied(changeIds: string[]): Promise<void>;
  /**
   * The change is written: applies its counts (visible when this resolves); what is left (closing it,
   * handing it to the features that listen) happens after. Never fails the request: a count that could
   * not be applied is applied by the relay.
   */
  written(change: Change): Promise<void>;
}

/**
 * The one way the core writes a change: records it, runs `write` (given the change id to store in
 * the same single-document write), then counts and publishes it once the write happened. `write`
 * answers null when it wrote nothing (the item changed meanwhile, or a replay found it written):
 * nothing is counted then, and the recorded change is dropped or counted by the relay on its proof.
 */
export async function writeWithEvent<T>(
  events: ChangeEvents,
  change: Change,
  write: (changeId: string) => Promise<T | null>,
): Promise<T | null> {
  await events.record(change);
  const result = await write(change.id);
  if (result !== null) await events.written(change);
  return result;
}
