import { runPasses, type Logger, type WakeableWorker } from '@fi/shared';
import type { ChangeVerdicts } from './changeVerdicts';
import { countChange, type ChangeListener, type StreamStores } from './changeStream';
import type { ChangeOutbox } from './data/changeOutbox';

/** Changes relayed per round: each round's work is bounded. */
const CHANGES_PER_ROUND = 100;

/**
 * The relay of the change stream, in the worker process: each open change, oldest first, is handed to the
 * listeners once its change is seen (when one wanted it), counted here only when its writer did not count
 * it within the grace period (the writer died), so the two never count it at once, and closed. Rounds run
 * every `intervalMs` and, in a process that also writes, at once after a write left a change open.
 */
export function startChangeRelay(
  stores: Pick<StreamStores, 'counts' | 'items'> & { outbox: ChangeOutbox },
  verdicts: ChangeVerdicts,
  listeners: ChangeListener[],
  intervalMs: number,
  logger: Logger,
): WakeableWorker {
  const { outbox, counts } = stores;
  const round = async (closed: () => boolean) => {
    for (const change of await outbox.pending(CHANGES_PER_ROUND)) {
      if (closed()) return;
      // A change no listener wants is its writer's to finish until its grace period is over: nothing of it
      // is read before then (its writer closes it after answering, most often before the relay looks).
      if (!change.deliver && !verdicts.pastGrace(change)) continue;
      const verdict = await verdicts.verdict(change);
      if (verdict === 'wait') continue;
      if (verdict === 'drop') {
        logger.warn({ eventId: change.id, type: change.type }, 'change dropped: it was never written');
        await outbox.remove(change.id);
        continue;
      }
      if (change.deliver && !change.enqueued && change.data !== undefined) {
        for (const listener of listeners) await listener.published(change);
        await outbox.markEnqueued(change.id);
      }
      // Its writer counts and releases the change itself; past the grace period it is gone, and the
      // relay finishes its work (so two processes never write the same cells at once).
      if (!change.counted || !change.released) {
        if (!verdicts.pastGrace(change)) continue;
        if (!change.counted) {
          await countChange(stores, change);
          await outbox.markCounted(change.id, change.delta);
          logger.warn(
            { eventId: change.id, type: change.type },
            'change counted by the relay: its writer did not count it',
          );
        }
        await counts.release(change.id, change.delta);
      }
      await outbox.close(change);
    }
  };
  return runPasses(intervalMs, round, (error) =>
    logger.warn({ err: error }, 'change relay round failed; retrying at the next poll'),
  );
}
