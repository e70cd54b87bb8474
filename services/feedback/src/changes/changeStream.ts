import type { Announcement, CellRef, Change, ChangeEvents, CountDelta } from '../core';
import type { RecordedChange, StreamChange } from './data/changeOutbox';

/**
 * A feature that reacts to the change stream (webhooks: deliver the changes their endpoints want). Asked
 * when a change is recorded whether it wants it; a wanted change stays open until the relay hands it over
 * (at least once, so `published` must be idempotent), in the worker process.
 */
export interface ChangeListener {
  wants(change: StreamChange): Promise<boolean>;
  published(change: RecordedChange): Promise<void>;
}

/** The stores the stream writes: the outbox of intents, the kept counts, and the items (a contact's newest after a removal). */
export interface StreamStores {
  outbox: {
    recordAll(changes: Array<{ change: StreamChange; deliver: boolean }>): Promise<void>;
    markApplied(ids: string[]): Promise<void>;
    markCounted(id: string, delta?: CountDelta): Promise<void>;
    markReleased(id: string): Promise<void>;
    close(change: Pick<StreamChange, 'id' | 'type'>): Promise<void>;
  };
  counts: {
    apply(changeId: string, delta: CountDelta): Promise<void>;
    release(changeId: string, delta: CountDelta): Promise<void>;
    setNewest(cell: CellRef, newest: Date | null): Promise<void>;
  };
  items: { newestPublished(cell: CellRef): Promise<Date | null> };
}

/** The core's ChangeEvents, what features announce, and the work a write left to finish. */
export interface ChangeStream extends ChangeEvents {
  /**
   * Announces an event whose change has already happened (an export's end) through the change path:
   * recorded (for the listeners that want it), then written at once; it changes no count.
   */
  announce(event: Announcement): Promise<void>;
  /** Resolves once what the writes of this process left to do (closing their changes) is done. */
  settle(): Promise<void>;
}

const COUNT_ATTEMPTS = 3;

/** Applies a change's counts (once, see CountStore); a removal may have taken a contact's or account's newest item, so its date is read again. */
export async function countChange(
  { counts, items }: Pick<StreamStores, 'counts' | 'items'>,
  change: Pick<StreamChange, 'id' | 'type' | 'delta'>,
): Promise<void> {
  await counts.apply(change.id, change.delta);
  if (change.type !== 'feedback.deleted') return;
  const cells = change.delta
    .filter(({ cell }) => cell.scope === 'email' || cell.scope === 'domain')
    .map(({ cell }) => cell);
  await Promise.all(cells.map(async (cell) => counts.setNewest(cell, await items.newestPublished(cell))));
}

/**
 * The change stream as the writers of items see it: a change is recorded (kept open for the relay when a
 * listener wants it), written by its writer, then counted before the write's request answers, so a total
 * read after a write includes it. What is left (marking it counted, taking it off the cells' pending
 * lists, closing it) runs after the answer, in that order; whatever a process did not finish (it died, the
 * database failed) the relay finishes past its grace period (see changeRelay.ts). Also used by the CLI's
 * imports, with no listener.
 */
export function changeStream(
  stores: StreamStores,
  options: {
    listeners?: ChangeListener[];
    /** Told after a change was left open for the relay (a relay in this process hands it over now). */
    wake?: () => void;
    warn: (error: unknown, changeId: string) => void;
  },
): ChangeStream {
  const { outbox, counts } = stores;
  const listeners = options.listeners ?? [];
  // Whether a listener wanted a change, from its record to its write (the same object), so that the
  // writer need not read it back.
  const delivered = new WeakMap<StreamChange, boolean>();
  const tails = new Set<Promise<void>>();

  const finish = async (change: StreamChange, deliver: boolean) => {
    try {
      await outbox.markCounted(change.id);
      await counts.release(change.id, change.delta);
      // A change no listener wants is done; one to hand over is closed by the relay once handed over.
      if (deliver) await outbox.markReleased(change.id);
      else await outbox.close(change);
    } catch (error) {
      options.warn(error, change.id);
    }
    if (deliver) options.wake?.();
  };

  const record = async (changes: StreamChange[]) => {
    const recorded = await Promise.all(
      changes.map(async (change) => {
        const wanted = await Promise.all(listeners.map((listener) => listener.wants(change)));
        const deliver = wanted.some(Boolean);
        delivered.set(change, deliver);
        return { change, deliver };
      }),
    );
    await outbox.recordAll(recorded);
  };

  const written = async (change: StreamChange) => {
    // Counting is idempotent, so a failed attempt (a busy embedded database) is simply tried again.
    for (let attempt = 1; attempt <= COUNT_ATTEMPTS; attempt += 1) {
      try {
        await countChange(stores, change);
        const tail = finish(change, delivered.get(change) ?? true);
        tails.add(tail);
        void tail.finally(() => tails.delete(tail));
        return;
      } catch (error) {
        if (attempt === COUNT_ATTEMPTS) options.warn(error, change.id);
      }
    }
    options.wake?.();
  };

  return {
    record: (change: Change) => record([change]),
    recordAll: (changes: Change[]) => record(changes),
    markApplied: (ids) => outbox.markApplied(ids),
    written: (change: Change) => written(change),
    async announce(event) {
      const change: StreamChange = { ...event, delta: [] };
      await record([change]);
      await written(change);
    },
    async settle() {
      while (tails.size > 0) await Promise.all([...tails]);
    },
  };
}
