import type { Logger, SecretBox } from '@fi/shared';
import { ITEM_MAKERS, type PlatformApis } from '../connectors';
import type { ConnectionStore } from '../data/connectionStore';
import type { InboxStore } from '../data/inboxStore';
import { openCredentials } from '../domain/connections';
import type { InboxEvent } from '../model/inboxEvent';
import { MAX_ITEMS_PER_CALL, Refused, Unavailable, type FeedbackPort, type NewItem } from '../ports';

export interface InboxWorkerDeps {
  inbox: InboxStore;
  connections: ConnectionStore;
  box: SecretBox;
  feedback: FeedbackPort;
  apis: PlatformApis;
  logger: Logger;
}

export interface InboxWorkerOptions {
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
  /** Batches of events worked on at once by this process. */
  concurrency: number;
  /** Events taken at once: their items are made in one call per connection. */
  batchSize: number;
}

/** Wait before the next attempt at an event a service could not take: 1 s, 2 s, 4 s... up to 5 minutes. */
const retryDelayMs = (attempts: number) => Math.min(300_000, 1_000 * 2 ** Math.max(0, attempts - 1));

type Finished = Parameters<InboxStore['finish']>[0][number];

/**
 * Makes the items of one connection's events: its maker reads each event, then the feedback service's rules
 * create the items in one call (one item per external id, so an event worked on twice makes one). A refusal
 * of the rules is the connection's last error and the event's outcome; a service or platform unavailable
 * leaves the event to be retried with a back-off, recorded as failed after `maxAttempts`.
 */
async function processConnection(
  deps: InboxWorkerDeps,
  connectionId: string,
  events: InboxEvent[],
  maxAttempts: number,
): Promise<void> {
  const connection = await deps.connections.findById(connectionId);
  const maker = connection && ITEM_MAKERS[connection.kind];
  if (!connection || !maker) {
    const detail = connection ? `nothing is made of ${connection.kind} events` : 'the integration was removed';
    return deps.inbox.finish(events.map((event) => ({ id: event.id, outcome: 'ignored', detail })));
  }
  const finished: Finished[] = [];
  const refusals: string[] = [];
  const givenUp: string[] = [];
  const failed = async (event: InboxEvent, error: unknown) => {
    if (error instanceof Refused) {
      const detail = `event ${event.deliveryKey} refused: ${error.message}`;
      refusals.push(detail);
      return finished.push({ id: event.id, outcome: 'failed', detail });
    }
    const reason = error instanceof Unavailable ? error.message : 'internal error';
    if (!(error instanceof Unavailable))
      deps.logger.error({ err: error, eventId: event.id }, 'event processing failed');
    if (event.attempts < maxAttempts) return deps.inbox.retryLater(event.id, retryDelayMs(event.attempts), reason);
    const detail = `event ${event.deliveryKey} given up after ${event.attempts} attempts: ${reason}`;
    givenUp.push(detail);
    finished.push({ id: event.id, outcome: 'failed', detail });
  };

  const made: Array<{ event: InboxEvent; item: NewItem }> = [];
  for (const event of events) {
    try {
      const credentials = openCredentials(deps.box, connection);
      const result = await maker.toItem(event, { connection, credentials, apis: deps.apis });
      if ('ignored' in result) finished.push({ id: event.id, outcome: 'ignored', detail: result.ignored });
      else made.push({ event, item: result.item });
    } catch (error) {
      await failed(event, error);
    }
  }
  const itemIds: string[] = [];
  for (let at = 0; at < made.length; at += MAX_ITEMS_PER_CALL) {
    const part = made.slice(at, at + MAX_ITEMS_PER_CALL);
    try {
      const added = await deps.feedback.addItems(
        connection,
        part.map(({ item }) => item),
      );
      part.forEach(({ event }, i) => {
        const outcome = added[i];
        if ('itemId' in outcome) {
          itemIds.push(outcome.itemId);
          finished.push({ id: event.id, outcome: 'done', itemId: outcome.itemId });
        } else {
          const detail = `event ${event.deliveryKey} refused: ${outcome.refused}`;
          refusals.push(detail);
          finished.push({ id: event.id, outcome: 'failed', detail });
        }
      });
    } catch (error) {
      for (const { event } of part) await failed(event, error);
    }
  }
  await deps.inbox.finish(finished);
  await deps.connections.recordItems(connection.id, itemIds, new Date());
  const lastError = [...refusals, ...givenUp].pop();
  if (lastError) await deps.connections.recordError(connection.id, lastError, new Date());
}

/** Makes the items of a batch of stored events, one connection's events together. */
export async function processEvents(deps: InboxWorkerDeps, events: InboxEvent[], maxAttempts: number): Promise<void> {
  const byConnection = new Map<string, InboxEvent[]>();
  for (const event of events)
    byConnection.set(event.connectionId, [...(byConnection.get(event.connectionId) ?? []), event]);
  await Promise.all(
    [...byConnection].map(([connectionId, own]) => processConnection(deps, connectionId, own, maxAttempts)),
  );
}

/**
 * Works the inbox: one loop takes batches of pending events (each with a lease, so a worker that dies
 * leaves them to another after `leaseMs`) while fewer than `concurrency` batches are in hand, makes their
 * items, and looks again every `pollMs` when there is nothing to take.
 */
export function startInboxWorker(deps: InboxWorkerDeps, options: InboxWorkerOptions) {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeUp: (() => void) | null = null;
  const inHand = new Set<Promise<void>>();

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wakeUp = resolve;
      timer = setTimeout(resolve, ms);
    });

  const work = (events: InboxEvent[]) => {
    const done = processEvents(deps, events, options.maxAttempts)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, events: events.length }, 'events not finished; taken again after their lease'),
      )
      .finally(() => {
        inHand.delete(done);
        wakeUp?.();
      });
    inHand.add(done);
  };

  const loop = (async () => {
    while (!stopped) {
      if (inHand.size >= options.concurrency) {
        await Promise.race(inHand);
        continue;
      }
      let events: InboxEvent[] = [];
      try {
        events = await deps.inbox.take(options.leaseMs, options.batchSize);
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not read the inbox; retrying');
      }
      if (events.length > 0) work(events);
      else if (!stopped) await pause(options.pollMs);
    }
    await Promise.all(inHand);
  })();

  return {
    /** Looks at once instead of at the next poll. */
    wake: () => wakeUp?.(),
    close: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      wakeUp?.();
      await loop;
    },
  };
}
